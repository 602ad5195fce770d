/**
 * Bundles: runs in the canonical layout of PROTOCOL.md §5, as a zip (export, import) or as the files of
 * a folder (import). Import is validate-everything-first: every path, size, manifest and record
 * is checked in memory and every problem reported at once, so a caller writes all or nothing.
 * Framework-free; fflate is loaded on first use so it never weighs on the first page.
 *
 * This module reads a bundle's runs; its parts live beside it: `bundle-types.ts`,
 * `bundle-zip.ts` (write), `bundle-unzip.ts`, `bundle-paths.ts`, `bundle-sort.ts`,
 * `bundle-stage-file.ts`, `bundle-run-files.ts` and `bundle-problems.ts`.
 */
import { EVAL_FILES } from '../core/protocol';
import { checkCrossStage, type EvalRecords } from '../core/results/completeness';
import { runKey } from '../core/names';
import { caseKey, STAGE_FILE_NAMES, type StageFile } from '../core/record-names';
import { coded } from '../core/said';
import { formatBytes } from '../core/text';
import { Problems } from './bundle-problems';
import { readCallsFile, readManifest, readReviewFiles } from './bundle-run-files';
import { sortEntries, type Sorted } from './bundle-sort';
import { readStageFile } from './bundle-stage-file';
import {
	DEFAULT_BUNDLE_LIMITS,
	type Bundle,
	type BundleEntry,
	type BundleFile,
	type BundleLimits,
	type BundleRun
} from './bundle-types';
import { unzipBundle } from './bundle-unzip';

export * from './bundle-types';
export { BundleError } from './bundle-problems';
export { zipBundle } from './bundle-zip';
export { unzipBundle } from './bundle-unzip';

/**
 * Validates the files of a bundle (from `unzipBundle`, or a folder's files with their paths
 * relative to the chosen folder) and returns its runs. Throws BundleError listing every
 * problem: unsafe or unknown paths, files larger than `limits`, runs without a manifest,
 * malformed manifests or records (file and line), cases not among the manifest's selected cases
 * or saved twice, and files of a run that disagree about a case.
 */
export async function readBundle(
	entries: readonly BundleEntry[],
	name: string,
	limits: BundleLimits = DEFAULT_BUNDLE_LIMITS
): Promise<Bundle> {
	const problems = new Problems();
	let total = 0;
	for (const entry of entries) {
		total += entry.bytes.length;
		if (entry.bytes.length > limits.maxEntryBytes) {
			problems.push(
				coded('bundle_file_too_large', {
					path: entry.path,
					size: formatBytes(entry.bytes.length),
					max: formatBytes(limits.maxEntryBytes)
				})
			);
		}
	}
	if (total > limits.maxTotalBytes) {
		problems.push(
			coded('bundle_files_too_large', {
				size: formatBytes(total),
				max: formatBytes(limits.maxTotalBytes)
			})
		);
	}
	if (problems.length) throw problems.error(name);

	const sorted = sortEntries(entries, problems);
	const label = (path: string) => `${name}: ${path}`;
	for (const [key, calls] of sorted.calls) {
		if (!sorted.manifests.has(key) && !sorted.stages.has(key)) {
			problems.push(coded('bundle_calls_without_manifest', { path: label(calls.path), run: key }));
		}
	}
	for (const [key, files] of sorted.reviews) {
		if (!sorted.manifests.has(key)) {
			problems.push(
				coded('review_without_run', { path: label(files[0].path), run: runKey(files[0].run) })
			);
		}
	}
	for (const [key, stageFiles] of sorted.stages) {
		if (!sorted.manifests.has(key)) {
			const n = stageFiles.length;
			const first = `${stageFiles[0].path}${n > 1 ? ', …' : ''}`;
			problems.push(coded('bundle_manifest_missing', { manifest: label(key), count: n, first }));
		}
	}
	const runs: BundleRun[] = [];
	for (const [key, entry] of [...sorted.manifests].sort(([a], [b]) => (a < b ? -1 : 1))) {
		const manifest = await readManifest(entry, label(entry.path), problems);
		if (!manifest) continue;
		// Compared as strings (PROTOCOL.md §5): a Python writer's integer case numbers import as they are.
		const selected = new Set(manifest.dataset.selected_case_numbers.map(caseKey));
		const files: Partial<Record<StageFile, BundleFile>> = {};
		let ok = true;
		for (const stage of sorted.stages.get(key) ?? []) {
			const read = readStageFile(stage.file, stage.bytes, label(stage.path), selected, problems);
			if (read) files[stage.file] = read;
			else ok = false;
		}
		const callsEntry = sorted.calls.get(key);
		const calls = callsEntry
			? readCallsFile(callsEntry.bytes, label(callsEntry.path), problems)
			: null;
		if (callsEntry && !calls) ok = false;
		const reviews = readReviewFiles(sorted.reviews.get(key) ?? [], label, problems);
		if (reviews === null) ok = false;
		if (!ok) continue;
		try {
			const evalRecords = Object.fromEntries(
				EVAL_FILES.filter((f) => files[f]).map((f) => [f, files[f]!.records])
			) as EvalRecords;
			checkCrossStage(evalRecords, (f) => label(stageEntryPath(sorted, key, f)));
		} catch (e) {
			problems.pushError(e);
			continue;
		}
		runs.push({
			run: entry.run,
			manifest,
			files: orderedFiles(files),
			...(calls ? { calls } : {}),
			...(reviews?.length ? { reviews } : {})
		});
	}
	if (problems.length === 0 && runs.length === 0) {
		problems.push(coded('bundle_no_run', {}));
	}
	if (problems.length) throw problems.error(name);
	return { name, runs, ignored: sorted.ignored };
}

function stageEntryPath(sorted: Sorted, key: string, file: StageFile): string {
	return sorted.stages.get(key)?.find((s) => s.file === file)?.path ?? file;
}

function orderedFiles(
	files: Partial<Record<StageFile, BundleFile>>
): Partial<Record<StageFile, BundleFile>> {
	return Object.fromEntries(
		STAGE_FILE_NAMES.filter((f) => files[f]).map((f) => [f, files[f]])
	) as Partial<Record<StageFile, BundleFile>>;
}

/** Unpacks and validates a zip bundle in one step. */
export async function readZipBundle(
	zip: Uint8Array,
	name: string,
	limits: BundleLimits = DEFAULT_BUNDLE_LIMITS
): Promise<Bundle> {
	if (zip.length > limits.maxTotalBytes) {
		const [size, max] = [formatBytes(zip.length), formatBytes(limits.maxTotalBytes)];
		throw Problems.one(coded('bundle_zip_too_large', { size, max })).error(name);
	}
	return readBundle(await unzipBundle(zip, name, limits), name, limits);
}

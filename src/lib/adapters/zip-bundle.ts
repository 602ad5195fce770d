/**
 * Bundles: runs in the canonical layout of PROTOCOL.md §5, as a zip (export, import) or as the files of
 * a folder (import). Import is validate-everything-first: every path, size, manifest and record
 * is checked in memory and every problem reported at once, so a caller writes all or nothing.
 * Framework-free; fflate is loaded on first use so it never weighs on the first page.
 *
 * One file for now: reading and writing a bundle share its path and size rules, and the file is
 * being changed in parallel; it splits by concern once that work has landed.
 */
import { parseCallLog } from '../core/calls/log';
import type { CallLogEntry } from '../core/calls/schema';
import { saidOf, UsageError } from '../core/errors';
import { coded, type CoreCode, type CoreText } from '../core/said';
import { english } from '../core/voice';
import { checkCrossStage, EVAL_FILES, type EvalRecords } from '../core/results/completeness';
import { parseJsonl } from '../core/jsonl';
import { mergeReviews, readReviewFile, type PlacedReview } from '../core/agreement/merge';
import { runKey } from '../core/names';
import {
	isResumeSealsPath,
	manifestPath,
	parseLayoutPath,
	parseReviewPath,
	unportableName,
	type RunKey,
	type UnportableRule
} from '../core/layout';
import { caseKey, STAGE_FILE_NAMES, STAGE_PATHS, type StageFile } from '../core/record-names';
import { STAGE_FILES, type AnyRecord, type Manifest } from '../core/records';
import { recordIdentity } from '../core/store/identity';
import { readManifestBytes } from '../core/store/manifest-file';
import { decodeLayoutText, formatBytes, stripBom } from '../core/text';

/** How much a bundle may unpack to; a zip bomb is refused before anything is inflated. */
export interface BundleLimits {
	/** Sum of the declared uncompressed sizes of all entries. @default 512 MiB */
	maxTotalBytes: number;
	/** Declared uncompressed size of one entry. @default 100 MiB */
	maxEntryBytes: number;
}

export const DEFAULT_BUNDLE_LIMITS: BundleLimits = {
	maxTotalBytes: 512 * 1024 * 1024,
	maxEntryBytes: 100 * 1024 * 1024
};

/** One file of a bundle: its path as stored in the zip or below the chosen folder. */
export interface BundleEntry {
	path: string;
	bytes: Uint8Array;
}

/** A bundle that cannot be imported; `problems` holds every reason, each naming its file. */
export class BundleError extends UsageError {
	override name = 'BundleError';
	/**
	 * @param problems the problems listed (at most a few dozen, the rest summarised in the last)
	 * @param total how many problems were found in all, when more than listed
	 */
	constructor(
		readonly problems: string[],
		bundleName: string,
		readonly total: number = problems.length,
		/** Each problem as a code, or null where it has none (shown in English then). */
		readonly problemsSaid: (CoreText | null)[] = problems.map(() => null)
	) {
		super(
			`${bundleName} cannot be imported (${total} problem${total === 1 ? '' : 's'}):\n` +
				problems.map((p) => `- ${p}`).join('\n')
		);
	}
}

/** One stage file of a run, as it will be stored. */
export interface BundleFile {
	/** The record lines exactly as in the bundle, without their line ends. */
	lines: string[];
	/** The same records, validated. */
	records: AnyRecord[];
}

/** A run's call log (`calls.jsonl`), when the bundle has one. */
export interface BundleCalls {
	/** The lines exactly as in the bundle, without their line ends. */
	lines: string[];
	/** The same lines, validated. */
	entries: CallLogEntry[];
}

/** One run of a bundle, fully validated. */
export interface BundleRun {
	run: RunKey;
	/** The manifest as written in the bundle (validated; unknown fields kept). */
	manifest: Manifest;
	files: Partial<Record<StageFile, BundleFile>>;
	/** Optional: bundles of older versions and of other tools have none. */
	calls?: BundleCalls;
	/** Reviews of the run's judge decisions (`reviews/…`), every file merged; absent when none. */
	reviews?: PlacedReview[];
}

export interface Bundle {
	/** The zip's file name or the folder's name, as messages call it. */
	name: string;
	runs: BundleRun[];
	/** Paths skipped on purpose: folders and operating-system clutter (`__MACOSX/`, `.DS_Store`). */
	ignored: string[];
}

const LAYOUT_TOPS = new Set(['runs', ...Object.values(STAGE_PATHS).map((s) => s.dir)]);
const CLUTTER = /(^|\/)(__MACOSX\/|\.DS_Store$|Thumbs\.db$|desktop\.ini$)/;
/** Problems listed before the rest are summarised; a broken bundle should not flood the page. */
const MAX_LISTED = 40;

/** Sort key of a layout path: run, then its manifest, then its stage files in PROTOCOL.md §5 order. */
function layoutRank(path: string): string {
	const named = parseLayoutPath(path);
	if (!named) return `~${path}`;
	const rank =
		named.kind === 'manifest'
			? 0
			: named.kind === 'calls'
				? STAGE_FILE_NAMES.length + 1
				: STAGE_FILE_NAMES.indexOf(named.file) + 1;
	return `${named.run.runId}\u0000${named.run.modelDir}\u0000${String(rank).padStart(2, '0')}`;
}

/**
 * Writes files of the canonical layout (path → UTF-8 text) into a zip, run by run, manifest
 * first. Entries carry a fixed date, so the same runs always give the same bytes.
 */
export async function zipBundle(files: Iterable<readonly [string, string]>): Promise<Uint8Array> {
	const { zipSync, strToU8 } = await import('fflate');
	const entries: Record<string, [Uint8Array, { mtime: Date }]> = {};
	const mtime = new Date(Date.UTC(2000, 0, 1));
	const sorted = [...files].sort(([a], [b]) => {
		const [ra, rb] = [layoutRank(a), layoutRank(b)];
		return ra < rb ? -1 : ra > rb ? 1 : 0;
	});
	for (const [path, text] of sorted) entries[path] = [strToU8(text), { mtime }];
	return zipSync(entries, { level: 6 });
}

/**
 * Names that must never become keys of an object holding entries: `__proto__` would set the
 * object's prototype (the entry vanishes), the others shadow what every object inherits.
 */
const RESERVED_NAMES = new Set(['prototype', ...Object.getOwnPropertyNames(Object.prototype)]);

/** The reserved segment of a path, or null. */
function reservedSegment(path: string): string | null {
	return path.split('/').find((part) => RESERVED_NAMES.has(part)) ?? null;
}

/**
 * Lists a zip's entries and unpacks them, refusing (BundleError) an archive whose declared sizes
 * exceed `limits` before inflating anything. fflate inflates each entry into a buffer of its
 * declared size, so an entry that lies about its size cannot grow past it either.
 *
 * The central directory is read entry by entry (fflate's `filter` sees every record, in order),
 * so two entries with one name, which an object keyed by name would collapse into one, are
 * refused by name, as are reserved names such as `__proto__`, which such an object would lose.
 */
export async function unzipBundle(
	zip: Uint8Array,
	name: string,
	limits: BundleLimits = DEFAULT_BUNDLE_LIMITS
): Promise<BundleEntry[]> {
	const { unzipSync } = await import('fflate');
	const declared: { name: string; size: number }[] = [];
	try {
		unzipSync(zip, {
			filter: (file) => {
				declared.push({ name: file.name, size: file.originalSize });
				return false;
			}
		});
	} catch (e) {
		const detail = (e as Error).message;
		throw new BundleError(
			[`not a readable zip archive (${detail}). Export the bundle again.`],
			name,
			1,
			[coded('bundle_not_zip', { detail })]
		);
	}
	const problems = new Problems();
	const count = new Map<string, number>();
	for (const entry of declared) count.set(entry.name, (count.get(entry.name) ?? 0) + 1);
	const firstAt = new Map<string, number>();
	const reported = new Set<string>();
	declared.forEach((entry, i) => {
		const first = firstAt.get(entry.name);
		if (first === undefined) firstAt.set(entry.name, i);
		else if (!reported.has(entry.name)) {
			reported.add(entry.name);
			const n = count.get(entry.name)!;
			problems.push(
				coded('bundle_entry_repeated', { name: entry.name, count: n, first: first + 1, at: i + 1 })
			);
		}
		const reserved = reservedSegment(entry.name);
		if (reserved !== null) {
			problems.push(coded('bundle_reserved_name', { name: entry.name, reserved }));
		}
		if (entry.size > limits.maxEntryBytes) {
			problems.push(
				coded('bundle_entry_too_large', {
					name: entry.name,
					size: formatBytes(entry.size),
					max: formatBytes(limits.maxEntryBytes)
				})
			);
		}
	});
	const total = declared.reduce((sum, e) => sum + e.size, 0);
	if (total > limits.maxTotalBytes) {
		problems.push(
			coded('bundle_archive_too_large', {
				size: formatBytes(total),
				max: formatBytes(limits.maxTotalBytes)
			})
		);
	}
	if (problems.length) throw problems.error(name);
	// Every name is now unique and none is reserved, so unpacking into an object keyed by name
	// keeps every entry; the count is checked all the same.
	let files: Record<string, Uint8Array>;
	try {
		files = unzipSync(zip);
	} catch (e) {
		throw Problems.one(coded('bundle_damaged', { detail: (e as Error).message })).error(name);
	}
	const entries = declared.map((d) => ({ path: d.name, bytes: files[d.name] }));
	if (entries.some((e) => !(e.bytes instanceof Uint8Array))) {
		throw Problems.one(coded('bundle_changed_while_read', {})).error(name);
	}
	return entries;
}

/** What is wrong with a path as stored, as a code, or null when it is safe to look at. */
function unsafePath(path: string): CoreText | null {
	const reserved = reservedSegment(path);
	if (reserved !== null) {
		return coded('path_reserved', { reserved });
	}
	if (path.includes('\\')) {
		return coded('path_backslashes', {});
	}
	if (path.startsWith('/') || /^[A-Za-z]:/.test(path)) {
		return coded('path_absolute', {});
	}
	if (path.split('/').some((part) => part === '..')) {
		return coded('path_outside', {});
	}
	return null;
}

/**
 * A bundle zipped from its folder has one extra top folder (`out/runs/…`): drop it when every
 * path shares it and it is not itself a folder of the layout.
 */
function stripCommonTop(paths: string[]): { strip: string; paths: string[] } {
	const tops = new Set(paths.map((p) => p.split('/')[0]));
	if (tops.size !== 1 || paths.some((p) => !p.includes('/'))) return { strip: '', paths };
	const [top] = tops;
	if (LAYOUT_TOPS.has(top)) return { strip: '', paths };
	return { strip: `${top}/`, paths: paths.map((p) => p.slice(top.length + 1)) };
}

/** The problems found, each with its code when it has one. */
class Problems {
	/** Each problem: its code, or the English of an error without one. */
	readonly #all: (CoreText | { text: string; said: CoreText | null })[] = [];
	get length(): number {
		return this.#all.length;
	}
	/** Problems holding `said` alone. */
	static one(said: CoreText): Problems {
		const problems = new Problems();
		problems.push(said);
		return problems;
	}
	/** A problem as a code; its English, the catalogue's, is made only if it is listed. */
	push(said: CoreText): void {
		this.#all.push(said);
	}
	/** The message of a reader's error, with its code when it has exactly one. */
	pushError(e: unknown, text = (e as Error).message): void {
		const said = saidOf(e);
		this.#all.push({ text, said: said?.length === 1 ? said[0] : null });
	}
	/** The error listing them: at most MAX_LISTED, then one line for the rest. */
	error(name: string): BundleError {
		const n = this.#all.length;
		const listed = this.#all.slice(0, MAX_LISTED);
		if (n > MAX_LISTED) listed.push(coded('bundle_more', { count: n - MAX_LISTED }));
		return new BundleError(
			listed.map((p) => ('code' in p ? english(p) : p.text)),
			name,
			n,
			listed.map((p) => ('code' in p ? p : p.said))
		);
	}
}

interface Sorted {
	manifests: Map<string, { run: RunKey; path: string; bytes: Uint8Array }>;
	/** Call logs, keyed like `manifests`. */
	calls: Map<string, { run: RunKey; path: string; bytes: Uint8Array }>;
	stages: Map<string, { run: RunKey; file: StageFile; path: string; bytes: Uint8Array }[]>;
	/** Review files, keyed like `manifests`. */
	reviews: Map<string, { run: RunKey; path: string; bytes: Uint8Array }[]>;
	ignored: string[];
}

const UNPORTABLE_CODES = {
	reserved: 'bundle_name_reserved',
	'trailing-dot': 'bundle_name_trailing_dot',
	'leading-dot': 'bundle_name_leading_dot'
} as const satisfies Record<UnportableRule, CoreCode>;

/** The folder of `run` (its run id first) that breaks a portability rule, or null. */
function unportableFolder(run: RunKey): { name: string; rule: UnportableRule } | null {
	for (const name of [run.runId, run.modelDir]) {
		const rule = unportableName(name);
		if (rule) return { name, rule };
	}
	return null;
}

/** Sorts entries into manifests and stage files by run, collecting every path problem. */
function sortEntries(entries: readonly BundleEntry[], problems: Problems): Sorted {
	const sorted: Sorted = {
		manifests: new Map(),
		calls: new Map(),
		stages: new Map(),
		reviews: new Map(),
		ignored: []
	};
	const files: BundleEntry[] = [];
	for (const entry of entries) {
		const bad = unsafePath(entry.path);
		if (bad) {
			problems.push(coded('bundle_unsafe_path', { path: entry.path }, { why: [bad] }));
		} else if (entry.path.endsWith('/') || CLUTTER.test(entry.path))
			sorted.ignored.push(entry.path);
		else files.push(entry);
	}
	const { strip, paths } = stripCommonTop(files.map((f) => f.path));
	const seen = new Set<string>();
	files.forEach((entry, i) => {
		const path = paths[i];
		const shown = strip + path;
		if (seen.has(path)) {
			problems.push(coded('bundle_twice', { path: shown }));
			return;
		}
		seen.add(path);
		// The CLI's resume seals hold only for the folder they were written in: left behind.
		if (isResumeSealsPath(path)) {
			sorted.ignored.push(shown);
			return;
		}
		const review = parseReviewPath(path);
		if (review) {
			const key = manifestPath(review.run);
			sorted.reviews.set(key, [
				...(sorted.reviews.get(key) ?? []),
				{ run: review.run, path: shown, bytes: entry.bytes }
			]);
			return;
		}
		const named = parseLayoutPath(path);
		if (!named) {
			const lock = path.endsWith('/.lock');
			problems.push(coded(lock ? 'bundle_lock_file' : 'bundle_not_layout', { path: shown }));
			return;
		}
		// A run id or model folder Windows cannot create (or a hidden one) is refused by name, so
		// a bundle imported here can always be exported and unpacked again anywhere.
		const unportable = unportableFolder(named.run);
		if (unportable) {
			problems.push(
				coded(UNPORTABLE_CODES[unportable.rule], { path: shown, name: unportable.name })
			);
			return;
		}
		const key = manifestPath(named.run);
		if (named.kind === 'manifest') {
			sorted.manifests.set(key, { run: named.run, path: shown, bytes: entry.bytes });
		} else if (named.kind === 'calls') {
			sorted.calls.set(key, { run: named.run, path: shown, bytes: entry.bytes });
		} else {
			const list = sorted.stages.get(key) ?? [];
			list.push({ run: named.run, file: named.file, path: shown, bytes: entry.bytes });
			sorted.stages.set(key, list);
		}
	});
	return sorted;
}

function decode(bytes: Uint8Array, label: string, problems: Problems): string | null {
	try {
		return decodeLayoutText(bytes, label);
	} catch (e) {
		problems.pushError(e, `${(e as Error).message}.`);
		return null;
	}
}

async function readManifest(
	entry: { run: RunKey; path: string; bytes: Uint8Array },
	label: string,
	problems: Problems
): Promise<Manifest | null> {
	try {
		// Kept as written (field order, unknown fields): export gives it back unchanged.
		return await readManifestBytes(entry.bytes, label, { run: entry.run, asWritten: true });
	} catch (e) {
		problems.pushError(
			e,
			`${(e as Error).message}${(e as Error).message.endsWith('.') ? '' : '.'}`
		);
		return null;
	}
}

/** Parses one stage file and checks that its cases are the run's selected cases, each once. */
function readStageFile(
	file: StageFile,
	bytes: Uint8Array,
	label: string,
	selected: ReadonlySet<string>,
	problems: Problems
): BundleFile | null {
	const text = decode(bytes, label, problems);
	if (text === null) return null;
	let records: AnyRecord[];
	try {
		records = parseJsonl(text, STAGE_FILES[file].schema, label) as AnyRecord[];
	} catch (e) {
		problems.pushError(e);
		return null;
	}
	const body = stripBom(text);
	const lines = body
		.split('\n')
		.slice(0, records.length)
		.map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line));
	const first = new Map<string, number>();
	let ok = true;
	records.forEach((record, i) => {
		if (!selected.has(caseKey(record.case_number))) {
			problems.push(
				coded('bundle_case_not_selected', {
					file: label,
					line: i + 1,
					caseNumber: String(record.case_number),
					count: selected.size
				})
			);
			ok = false;
			return;
		}
		const identity = recordIdentity(file, record);
		const line = first.get(identity);
		if (line !== undefined) {
			problems.push(
				'history_type' in record && typeof record.history_type === 'string'
					? coded('bundle_case_twice_role', {
							file: label,
							at: i + 1,
							caseNumber: String(record.case_number),
							role: record.history_type,
							line
						})
					: coded('bundle_case_twice', {
							file: label,
							at: i + 1,
							caseNumber: String(record.case_number),
							line
						})
			);
			ok = false;
		} else first.set(identity, i + 1);
	});
	return ok ? { lines, records } : null;
}

/** Parses a run's calls.jsonl: every line a valid, bounded call-log entry (file and line named). */
function readCallsFile(bytes: Uint8Array, label: string, problems: Problems): BundleCalls | null {
	const text = decode(bytes, label, problems);
	if (text === null) return null;
	let entries: CallLogEntry[];
	try {
		entries = parseCallLog(text, label);
	} catch (e) {
		problems.pushError(e);
		return null;
	}
	const lines = text
		.replace(/^\uFEFF/, '')
		.split('\n')
		.slice(0, entries.length)
		.map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line));
	return { lines, entries };
}

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

/** A run's review files, merged (conflicts refused by place); null after a problem. */
function readReviewFiles(
	files: readonly { run: RunKey; path: string; bytes: Uint8Array }[],
	label: (path: string) => string,
	problems: Problems
): PlacedReview[] | null {
	let merged: PlacedReview[] = [];
	try {
		for (const f of files) {
			const text = decodeLayoutText(f.bytes, label(f.path));
			merged = mergeReviews(merged, readReviewFile(text, label(f.path), f.run)).merged;
		}
	} catch (e) {
		problems.pushError(e);
		return null;
	}
	return merged;
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

/**
 * A zip bundle held in memory and read as the Results page reads browser storage: its runs as run
 * lists show them, and a `LayoutSource` over their files, so `computeReport` scores a bundle
 * opened from a link without a byte of it written to IndexedDB (that waits for Import).
 */
import { callLogPath, manifestPath, stageFilePath, type RunKey } from '../core/layout';
import { runKey } from '../core/names';
import { STAGE_FILE_NAMES, type StageFile } from '../core/record-names';
import { memorySource, type LayoutSource } from '../core/results/source';
import { manifestText } from '../core/store/manifest-file';
import type { StoredRun } from '../core/store/types';
import type { Bundle } from './zip-bundle';

/** A bundle opened read-only: where it came from, its runs, and its files for the reader. */
export interface BundleView {
	/** The URL it was read from, as the link gave it. */
	url: string;
	/** Its size as read, in bytes. */
	bytes: number;
	bundle: Bundle;
	/** Its runs as run lists show them, sorted by run id then model folder. */
	runs: StoredRun[];
	/** The files of `runs` (all of the bundle's when left out) in the canonical layout. */
	layout(runs?: readonly RunKey[]): LayoutSource;
}

const lineText = (lines: readonly string[]) => lines.map((line) => `${line}\n`).join('');

export function bundleView(bundle: Bundle, url: string, bytes: number): BundleView {
	const runs = bundle.runs
		.map(({ run, manifest, files }) => ({
			run,
			manifest,
			counts: Object.fromEntries(
				STAGE_FILE_NAMES.map((file) => [file, files[file]?.records.length ?? 0])
			) as Record<StageFile, number>
		}))
		.sort((a, b) => (runKey(a.run) < runKey(b.run) ? -1 : runKey(a.run) > runKey(b.run) ? 1 : 0));
	return {
		url,
		bytes,
		bundle,
		runs,
		layout(wanted) {
			const keys = wanted?.map(runKey);
			const files: Record<string, string> = {};
			for (const r of bundle.runs) {
				if (keys && !keys.includes(runKey(r.run))) continue;
				files[manifestPath(r.run)] = manifestText(r.manifest);
				for (const file of STAGE_FILE_NAMES) {
					const lines = r.files[file]?.lines;
					if (lines?.length) files[stageFilePath(r.run, file)] = lineText(lines);
				}
				if (r.calls?.lines.length) files[callLogPath(r.run)] = lineText(r.calls.lines);
			}
			return memorySource(files, bundle.name);
		}
	};
}

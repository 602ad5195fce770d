/**
 * What a bundle is once read (its runs, files and call logs) and what it may unpack to.
 */
import type { CallLogEntry } from '../core/calls/schema';
import type { PlacedReview } from '../core/agreement/merge';
import type { RunKey } from '../core/layout';
import type { StageFile } from '../core/record-names';
import type { AnyRecord, Manifest } from '../core/records';

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

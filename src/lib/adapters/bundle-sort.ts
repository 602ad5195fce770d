/**
 * A bundle's entries sorted by run into manifests, stage files, call logs and reviews, with
 * every path problem noted (unsafe, unknown, repeated, unportable) and clutter set aside.
 */
import {
	isResumeSealsPath,
	manifestPath,
	parseLayoutPath,
	parseReviewPath,
	unportableName,
	type RunKey,
	type UnportableRule
} from '../core/layout';
import type { StageFile } from '../core/record-names';
import { coded, type CoreCode } from '../core/said';
import { stripCommonTop, unsafePath } from './bundle-paths';
import type { Problems } from './bundle-problems';
import type { BundleEntry } from './bundle-types';

const CLUTTER = /(^|\/)(__MACOSX\/|\.DS_Store$|Thumbs\.db$|desktop\.ini$)/;

export interface Sorted {
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
export function sortEntries(entries: readonly BundleEntry[], problems: Problems): Sorted {
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

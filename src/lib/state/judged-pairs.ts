/** Which shown runs are re-judged runs to compare with their sources (results-judges.svelte.ts). */
import type { RunKey } from '$lib/core/layout';
import { runKey } from '$lib/core/names';
import type { StoredRun } from '$lib/core/store/types';

/** A re-judged run id and the run id it re-judged, with the model folders of both shown. */
export interface JudgedPair {
	/** The source run's id (judge A). */
	a: string;
	/** The re-judged run's id (judge B). */
	b: string;
	/** The runs of both ids to read: every shown re-judged run and its source. */
	runs: RunKey[];
}

/**
 * The pairs of runs to compare: each shown run re-judged from a run in `stored` (its source,
 * same model folder), grouped by the two run ids, in the order the re-judged runs are shown.
 */
export function judgedPairs(
	shown: readonly StoredRun[],
	stored: readonly StoredRun[]
): JudgedPair[] {
	const keys = new Set(stored.map((r) => runKey(r.run)));
	const pairs = new Map<string, JudgedPair>();
	for (const r of shown) {
		const from = r.manifest.rejudged_from;
		if (!from || from.model_dir !== r.run.modelDir) continue;
		const source: RunKey = { runId: from.run_id, modelDir: from.model_dir };
		if (source.runId === r.run.runId || !keys.has(runKey(source))) continue;
		const id = JSON.stringify([source.runId, r.run.runId]);
		const pair = pairs.get(id) ?? { a: source.runId, b: r.run.runId, runs: [] };
		pair.runs.push(source, r.run);
		pairs.set(id, pair);
	}
	return [...pairs.values()];
}

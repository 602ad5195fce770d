/** How far each stage of a stored run has got, in cases, for run lists and the partial labels. */
import type { StoredRun } from '$lib/core/store/types';
import type { StageFile } from '$lib/core/record-names';
import { runKey } from '$lib/core/names';
import { m } from '$lib/paraglide/messages';

export interface StageCount {
	/** Short name, as the run lists show it. */
	label: string;
	/** Cases finished in every file of the stage. */
	done: number;
	/** Selected cases. */
	total: number;
	/** Some record of the stage is saved. */
	started: boolean;
}

/** The files of each stage, in stage order. */
export const STAGES: { label: string; files: StageFile[] }[] = [
	{ label: 'gen', files: ['a1', 'LCA_results', 'interaction'] },
	{ label: 'dcg', files: ['force_ask', 'DCG_results'] },
	{ label: 'direct', files: ['a1_direct', 'LJP_direct'] },
	{ label: 'gold', files: ['a1_force_judge', 'LJP_gold'] },
	{ label: 'interaction', files: ['LJP_interaction'] }
];

/** a1 and LCA hold two records per case (one per history). */
export const PER_CASE: Partial<Record<StageFile, number>> = { a1: 2, LCA_results: 2 };

export function stageCounts(run: Pick<StoredRun, 'counts' | 'manifest'>): StageCount[] {
	const total = run.manifest.dataset.selected_case_numbers.length;
	return STAGES.map(({ label, files }) => ({
		label,
		total,
		done: Math.min(...files.map((f) => Math.floor(run.counts[f] / (PER_CASE[f] ?? 1)))),
		started: files.some((f) => run.counts[f] > 0)
	}));
}

/** Some stage started but not finished: figures from it are partial. */
export function isIncomplete(run: Pick<StoredRun, 'counts' | 'manifest'>): boolean {
	return stageCounts(run).some((s) => s.started && s.done < s.total);
}

/**
 * Incomplete AND being written now: `writing` holds the keys (`runKey`) of the runs whose writer
 * lock is held in this browser (`IdbStore.heldRuns()`: a run active on a Run page, running or
 * paused, in any tab). An imported run, or a browser run stopped or left unfinished, has no
 * writer: it is incomplete, never "in progress".
 */
export function isInProgress(
	run: Pick<StoredRun, 'run' | 'counts' | 'manifest'>,
	writing: readonly string[]
): boolean {
	return writing.includes(runKey(run.run)) && isIncomplete(run);
}

/** Records saved in all files of the run. */
export function recordTotal(run: Pick<StoredRun, 'counts'>): number {
	return Object.values(run.counts).reduce((a, b) => a + b, 0);
}

/** A stage chip's tooltip, in the interface language: `gen: 3 of 10 cases`. */
export function stageTitle(s: StageCount): string {
	return m.results_stage_title({ stage: s.label, done: s.done, total: s.total });
}

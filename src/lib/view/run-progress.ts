/** How far each stage of a stored run has got, in cases, for run lists and the partial labels. */
import type { StoredRun } from '$lib/core/store/types';
import { RUN_ALL_STAGES, stageRow, type StageName } from '$lib/core/protocol';
import { STAGE_PATHS, type StageFile } from '$lib/core/record-names';
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

/** The files of each stage `runAll` runs, in stage order; an LJP stage named by its setup. */
export const STAGES: { label: string; files: readonly StageFile[] }[] = RUN_ALL_STAGES.map((s) => {
	const { ljpSetup, writes } = stageRow(s);
	return { label: ljpSetup ?? s, files: writes };
});

/** The chip of `stage` named as the run lists name it: `done` of `total` cases. */
export const stageChip = (stage: StageName, done: number, total: number, started = done > 0) => ({
	label: stageRow(stage).ljpSetup ?? stage,
	done,
	total,
	started
});

export function stageCounts(run: Pick<StoredRun, 'counts' | 'manifest'>): StageCount[] {
	const total = run.manifest.dataset.selected_case_numbers.length;
	return STAGES.map(({ label, files }) => ({
		label,
		total,
		done: Math.min(...files.map((f) => Math.floor(run.counts[f] / STAGE_PATHS[f].perCase))),
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

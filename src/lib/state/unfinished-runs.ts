/**
 * The runs this browser started and did not finish, for the Run page's "Resume" list: a plan
 * remembered in localStorage whose manifest is still in IndexedDB and whose records do not yet
 * cover every selected case of every stage it asked for. A plan's status is only what its tab
 * last wrote (a tab closed between the last record and "done" leaves `running`), so the records
 * decide whether a run is finished, and the Web Locks held now whether another tab writes it.
 */
import { STAGE_OUTPUTS, type StageName } from '$lib/core/protocol';
import type { RunKey } from '$lib/core/layout';
import type { Manifest, StageFile } from '$lib/core/records';
import { PAIRED_FILES } from '$lib/core/store/identity';
import type { CheckpointStore } from '$lib/core/store/types';
import { runKey } from '$lib/core/names';
import { type RunPlan } from '$lib/core/control/run-plans';

export interface UnfinishedRun {
	plan: RunPlan;
	manifest: Manifest;
	/** Cases saved so far, per stage of the plan. */
	saved: Partial<Record<StageName, number>>;
	/** Cases the run selected. */
	selected: number;
	/** Another tab or window is writing it now. */
	busyElsewhere: boolean;
	/** What the list says of it: the plan's status as the records and locks correct it. */
	state: UnfinishedState;
}

/**
 * `interrupted`: the plan says running but no tab holds the run (a reload or a closed tab);
 * `running-elsewhere`, `paused-elsewhere`: another tab holds its lock.
 */
export type UnfinishedState =
	'interrupted' | 'paused' | 'stopped' | 'failed' | 'running-elsewhere' | 'paused-elsewhere';

/** The runs whose writer lock is held now (`IdbStore.heldRuns()`), or a way to ask for them. */
export type HeldRuns = readonly RunKey[] | (() => Promise<readonly RunKey[]>);

/** Cases saved for each stage: the records of the file a stage writes last for a case. */
/** A store that counts the records of a file without reading them (`IdbStore`). */
interface IdbStoreCounts {
	countRecords(run: RunKey, file: StageFile): Promise<number>;
}

export async function savedPerStage(
	store: CheckpointStore,
	run: RunKey,
	stages: readonly StageName[]
): Promise<Partial<Record<StageName, number>>> {
	const out: Partial<Record<StageName, number>> = {};
	// IndexedDB counts a file's rows without reading them: reading and checking 432 full records
	// per stage was a main-thread task of over a second after every run.
	const counting = store as Partial<Pick<IdbStoreCounts, 'countRecords'>>;
	for (const stage of stages) {
		const file = STAGE_OUTPUTS[stage].at(-1)!;
		const n =
			typeof counting.countRecords === 'function'
				? await counting.countRecords(run, file)
				: (await store.readRecords(run, file)).length;
		out[stage] = PAIRED_FILES.has(file) ? Math.floor(n / 2) : n;
	}
	return out;
}

/**
 * Unfinished runs, newest first. `heldRuns` are the runs whose writer lock is held anywhere in
 * this browser (`IdbStore.heldRuns()`), asked after the records are read: a run's lock is taken
 * before its plan says `running` and released after it says how the run ended, so a lock seen
 * free after the plan was read means no tab writes the run. `exclude` is the run this page shows.
 */
export async function listUnfinished(
	store: CheckpointStore,
	plans: readonly RunPlan[],
	heldRuns: HeldRuns = [],
	exclude: RunKey | null = null
): Promise<UnfinishedRun[]> {
	const found: Omit<UnfinishedRun, 'busyElsewhere' | 'state'>[] = [];
	for (const plan of plans) {
		if (plan.status === 'done') continue;
		if (exclude && runKey(exclude) === runKey(plan)) continue;
		let manifest: Manifest | null;
		let saved: Partial<Record<StageName, number>>;
		try {
			manifest = await store.readManifest(plan);
			if (!manifest) continue;
			saved = await savedPerStage(store, plan, plan.stages);
		} catch {
			// A run whose files cannot be read is for the Results page to explain, not for Resume.
			continue;
		}
		const selected = manifest.dataset.selected_case_numbers.length;
		// Every stage saved for every selected case: finished, whatever the plan last said.
		if (plan.stages.every((stage) => (saved[stage] ?? 0) >= selected)) continue;
		found.push({ plan, manifest, saved, selected });
	}
	const held = typeof heldRuns === 'function' ? await heldRuns() : heldRuns;
	const busy = new Set(held.map(runKey));
	const out = found.map((item): UnfinishedRun => {
		const busyElsewhere = busy.has(runKey(item.plan));
		return { ...item, busyElsewhere, state: stateOf(item.plan.status, busyElsewhere) };
	});
	return out.sort((a, b) => b.plan.updatedAt.localeCompare(a.plan.updatedAt));
}

function stateOf(status: RunPlan['status'], busyElsewhere: boolean): UnfinishedState {
	if (busyElsewhere) return status === 'paused' ? 'paused-elsewhere' : 'running-elsewhere';
	if (status === 'running') return 'interrupted';
	// `done` plans never reach here; one whose records fall short (deleted since) reads stopped.
	return status === 'done' ? 'stopped' : status;
}

/**
 * The runs this browser started and did not finish, for the Run page's "Resume" list: a plan
 * remembered in localStorage whose manifest is still in IndexedDB and whose status is not done.
 */
import { STAGE_OUTPUTS, type StageName } from '$lib/core/engine/types';
import type { RunKey } from '$lib/core/layout';
import type { Manifest } from '$lib/core/records';
import { PAIRED_FILES } from '$lib/core/store/identity';
import type { CheckpointStore } from '$lib/core/store/types';
import { planKey, type RunPlan } from './run-plans';

export interface UnfinishedRun {
	plan: RunPlan;
	manifest: Manifest;
	/** Cases saved so far, per stage of the plan. */
	saved: Partial<Record<StageName, number>>;
	/** Cases the run selected. */
	selected: number;
	/** Another tab or window is writing it now. */
	busyElsewhere: boolean;
}

/** Cases saved for each stage: the records of the file a stage writes last for a case. */
export async function savedPerStage(
	store: CheckpointStore,
	run: RunKey,
	stages: readonly StageName[]
): Promise<Partial<Record<StageName, number>>> {
	const out: Partial<Record<StageName, number>> = {};
	for (const stage of stages) {
		const file = STAGE_OUTPUTS[stage].at(-1)!;
		const records = await store.readRecords(run, file);
		out[stage] = PAIRED_FILES.has(file) ? Math.floor(records.length / 2) : records.length;
	}
	return out;
}

/**
 * Unfinished runs, newest first. `held` are the runs whose writer lock is held anywhere in this
 * browser (`IdbStore.heldRuns()`); `exclude` is the run this page shows itself.
 */
export async function listUnfinished(
	store: CheckpointStore,
	plans: readonly RunPlan[],
	held: readonly RunKey[] = [],
	exclude: RunKey | null = null
): Promise<UnfinishedRun[]> {
	const busy = new Set(held.map(planKey));
	const out: UnfinishedRun[] = [];
	for (const plan of plans) {
		if (plan.status === 'done') continue;
		if (exclude && planKey(exclude) === planKey(plan)) continue;
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
		out.push({
			plan,
			manifest,
			saved,
			selected: manifest.dataset.selected_case_numbers.length,
			busyElsewhere: busy.has(planKey(plan))
		});
	}
	return out.sort((a, b) => b.plan.updatedAt.localeCompare(a.plan.updatedAt));
}

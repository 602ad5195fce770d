/**
 * A batch-mode run's rounds in IndexedDB (`BatchStore` of `core/batch/store.ts`): its state in
 * `batch_states` (one row, rewritten whole in one transaction) and its answers in
 * `batch_answers` (one row per answer, a round's answers appended in one transaction, so a full
 * disk saves none of them). Rows are checked when read; a damaged one is refused naming the
 * run's file. Neither is exported in a bundle; both go with the run. Beside them, a run plan's
 * spending cap and spend so far (`PlanSpendStore`), in `plans` by plan id: a plan's, not a run's.
 */
import {
	BatchState,
	batchAnswerLine,
	parseBatchAnswers,
	parseBatchState,
	type SavedBatchAnswer
} from '../core/batch/store';
import { batchAnswersPath, batchStatePath, planSpendPath, type RunKey } from '../core/layout';
import { parsePlanSpend, type PlanSpend } from '../core/session/spend';
import { runRange } from './idb-ranges';
import type { Db } from './idb-schema';
import { storedLabel, writeTx } from './idb-write';

export async function readBatchState(db: Db, run: RunKey): Promise<BatchState | null> {
	const row = await db.get('batch_states', [run.runId, run.modelDir]);
	if (!row) return null;
	const label = storedLabel(batchStatePath(run));
	return parseBatchState(row.json, label);
}

export async function writeBatchState(db: Db, run: RunKey, state: BatchState): Promise<void> {
	const json = JSON.stringify(BatchState.parse(state));
	await writeTx(db, 'batch_states', storedLabel(batchStatePath(run)), async (tx) => {
		await tx.objectStore('batch_states').put({ ...run, json });
	});
}

export async function appendBatchAnswers(
	db: Db,
	run: RunKey,
	answers: readonly SavedBatchAnswer[]
): Promise<void> {
	if (answers.length === 0) return;
	const lines = answers.map((a) => batchAnswerLine(a).slice(0, -1));
	await writeTx(db, 'batch_answers', storedLabel(batchAnswersPath(run)), async (tx) => {
		const store = tx.objectStore('batch_answers');
		const last = await store.openKeyCursor(runRange(run), 'prev');
		const first = last ? (last.primaryKey[2] as number) + 1 : 0;
		// Queued at once: awaiting each add would take a round trip per answer. Each is watched
		// at once too, so an add refused midway leaves no unwatched rejection of the earlier ones.
		const adds: Promise<unknown>[] = [];
		for (const [i, json] of lines.entries()) {
			const add = store.add({ runId: run.runId, modelDir: run.modelDir, seq: first + i, json });
			add.catch(() => undefined);
			adds.push(add);
		}
		await Promise.all(adds);
	});
}

export async function readBatchAnswers(db: Db, run: RunKey): Promise<SavedBatchAnswer[]> {
	const rows = await db.getAll('batch_answers', runRange(run));
	// Every row is whole (written in a transaction), so each ends its line: none is dropped as torn.
	const text = rows.map((row) => `${row.json}\n`).join('');
	return parseBatchAnswers(text, storedLabel(batchAnswersPath(run)));
}

/** The plan's saved cap and spend; null when none is saved or the row is not one this wrote. */
export async function readPlanSpend(db: Db, planId: string): Promise<PlanSpend | null> {
	const row = await db.get('plans', planId);
	if (!row) return null;
	try {
		return parsePlanSpend(JSON.parse(row.json));
	} catch {
		return null;
	}
}

export async function writePlanSpend(db: Db, planId: string, spend: PlanSpend): Promise<void> {
	const json = JSON.stringify(spend);
	await writeTx(db, 'plans', storedLabel(planSpendPath(planId)), async (tx) => {
		await tx.objectStore('plans').put({ planId, json });
	});
}

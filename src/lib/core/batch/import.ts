/**
 * Files mode's way back: the output files of the run's waiting round, in the OpenAI / vLLM
 * format. The round's requests are recomputed by a replay pass (nothing logged, nothing sent);
 * every line is checked by {@link BatchOutputReader} (unknown, duplicated, other-run ids and torn
 * files refused with file and line) before anything is saved; then the answers are appended and
 * the round marked answered. The caller runs `runBatch` again to go on.
 */
import { UsageError } from '../errors';
import { coded } from '../said';
import { runHash } from './custom-id';
import { BatchOutputReader } from './output';
import { batchPass, batchRunKey, type BatchRunOptions } from './pass';
import { openRound } from './rounds';
import { noAnswer } from './sender';
import type { SavedBatchAnswer } from './store';

export interface ImportOptions {
	/** Requests no file answers count as failed (retried in a later round). @default refused */
	allowMissing?: boolean;
}

export async function importBatchOutputs(
	options: BatchRunOptions,
	files: { name: string; text: string }[],
	how: ImportOptions = {}
): Promise<{ answers: number; round: number; missing: number }> {
	const { store } = options;
	const run = await batchRunKey(options);
	const state = await store.readBatchState(run);
	const round = state && openRound(state);
	if (!state || !round || round.mode !== 'files' || round.files.length === 0) {
		throw new UsageError([coded('batch_nothing_waiting', { run: options.runId })]);
	}
	const answers = new Map((await store.readBatchAnswers(run)).map((a) => [a.customId, a]));
	const pass = await batchPass(options, answers, () => false);
	if (pass.done) throw new UsageError([coded('batch_nothing_waiting', { run: options.runId })]);
	const reader = new BatchOutputReader(
		new Set(pass.pending.map((p) => p.customId)),
		await runHash(run)
	);
	const got = new Map(
		files.flatMap((f) => reader.read(f.text, f.name)).map((a) => [a.customId, a])
	);
	const missing = reader.missing();
	if (missing.length > 0 && !how.allowMissing) {
		throw new UsageError([
			coded('batch_import_missing', {
				round: round.round,
				count: missing.length,
				total: pass.pending.length
			})
		]);
	}
	const saved: SavedBatchAnswer[] = pass.pending.map((p) => ({
		...(got.get(p.customId) ?? noAnswer(p.customId)),
		round: round.round
	}));
	await store.appendBatchAnswers(run, saved);
	await store.writeBatchState(run, {
		version: 1,
		rounds: state.rounds.map((r) => (r.round === round.round ? { ...r, status: 'answered' } : r))
	});
	return { answers: got.size, round: round.round, missing: missing.length };
}

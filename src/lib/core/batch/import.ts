/**
 * Files mode's way back: the output files of the waiting round, in the OpenAI / vLLM format, for
 * one run or for every run of a plan at once (each line goes to the run its custom_id names). The
 * rounds' requests are recomputed by replay passes (nothing logged, nothing sent); every line is
 * checked by {@link BatchOutputReader} (unknown, duplicated, other-run ids and torn files refused
 * with file and line) before anything is saved; then each run's answers are appended and its
 * round marked answered. The caller runs `runBatch` again to go on.
 */
import { UsageError } from '../errors';
import type { RunKey } from '../names';
import { coded } from '../said';
import type { PendingRequest } from './client';
import { runHash } from './custom-id';
import { BatchOutputReader, type BatchAnswer } from './output';
import { batchPass, batchRunKey, type BatchRunOptions } from './pass';
import { askedBefore, knownAnswers, reportedRound } from './known-answers';
import { roundOutcome, type RoundOutcome } from './outcome';
import { openRound } from './rounds';
import { noAnswer } from './sender';
import type { BatchRound, BatchState, SavedBatchAnswer } from './store';

export interface ImportOptions {
	/** Requests no file answers count as failed (retried in a later round). @default refused */
	allowMissing?: boolean;
}

export interface ImportResult {
	run: RunKey;
	/** Requests answered with a chat completion (error lines and failed statuses not counted). */
	answers: number;
	round: number;
	missing: number;
	/** The failed requests by kind (HTTP status, batch error code), with their first message. */
	failed: RoundOutcome['failed'];
}

/** A run whose files round is out, with the requests a replay pass recomputed. */
interface Waiting {
	options: BatchRunOptions;
	run: RunKey;
	state: BatchState;
	round: BatchRound;
	pending: readonly PendingRequest[];
}

async function waitingRound(options: BatchRunOptions): Promise<Waiting | null> {
	const { store } = options;
	const run = await batchRunKey(options);
	const state = await store.readBatchState(run);
	const round = state && openRound(state);
	if (!state || !round || round.mode !== 'files' || round.files.length === 0) return null;
	const answers = knownAnswers(await store.readBatchAnswers(run), round.round);
	const pass = await batchPass(
		options,
		answers,
		() => false,
		askedBefore(answers, reportedRound(state))
	);
	return pass.done ? null : { options, run, state, round, pending: pass.pending };
}

/** One run's import: refused (`batch_nothing_waiting`) when no files round of it is out. */
export async function importBatchOutputs(
	options: BatchRunOptions,
	files: { name: string; text: string }[],
	how: ImportOptions = {}
): Promise<ImportResult> {
	const [result] = await importPlanBatchOutputs([options], files, how);
	return result;
}

/**
 * A plan's import: the runs without a files round out are passed over, and so are those the
 * files answer nothing of (they stay waiting); refused when no run has a round out. Returns one
 * result per run that took answers, in the plan's order.
 */
export async function importPlanBatchOutputs(
	runs: readonly BatchRunOptions[],
	files: { name: string; text: string }[],
	how: ImportOptions = {}
): Promise<ImportResult[]> {
	const waiting: Waiting[] = [];
	for (const options of runs) {
		const w = await waitingRound(options);
		if (w) waiting.push(w);
	}
	if (waiting.length === 0) {
		const run = runs.map((r) => r.runId).join(', ');
		throw new UsageError([coded('batch_nothing_waiting', { run })]);
	}
	const reader = new BatchOutputReader(
		new Set(waiting.flatMap((w) => w.pending.map((p) => p.customId))),
		new Set(await Promise.all(waiting.map((w) => runHash(w.run))))
	);
	const got = new Map<string, BatchAnswer>(
		files.flatMap((f) => reader.read(f.text, f.name)).map((a) => [a.customId, a])
	);
	// A run the files answer nothing of is passed over, still waiting: its outputs may come in a
	// later import (each model on its own node). With nothing answered at all, all of them count.
	const answered = waiting.filter((w) => w.pending.some((p) => got.has(p.customId)));
	const taken = answered.length > 0 ? answered : waiting;
	const missing = new Set(
		taken.flatMap((w) => w.pending.map((p) => p.customId).filter((id) => !got.has(id)))
	);
	if (missing.size > 0 && !how.allowMissing) {
		const first = taken.find((w) => w.pending.some((p) => missing.has(p.customId)))!;
		throw new UsageError([
			coded('batch_import_missing', {
				round: first.round.round,
				count: missing.size,
				total: taken.reduce((n, w) => n + w.pending.length, 0)
			})
		]);
	}
	const results: ImportResult[] = [];
	for (const { options, run, state, round, pending } of taken) {
		const saved: SavedBatchAnswer[] = pending.map((p) => ({
			...(got.get(p.customId) ?? noAnswer(p.customId)),
			round: round.round
		}));
		// Unanswered requests are counted apart (`missing`), not as failed lines of the files.
		const outcome = roundOutcome(saved.filter((a) => got.has(a.customId)));
		await options.store.appendBatchAnswers(run, saved);
		await options.store.writeBatchState(run, {
			version: 1,
			rounds: state.rounds.map((r) =>
				r.round === round.round ? { ...r, status: 'answered', outcome: roundOutcome(saved) } : r
			)
		});
		results.push({
			run,
			answers: outcome.answers,
			round: round.round,
			missing: pending.filter((p) => missing.has(p.customId)).length,
			failed: outcome.failed
		});
	}
	return results;
}

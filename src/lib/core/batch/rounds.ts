/**
 * Batch mode's loop (PROTOCOL.md §3, batch mode): one pass of the ordinary engine per round
 * (`pass.ts`); a pass that parks cases hands its pending requests to a {@link RoundSender}, and
 * the next pass replays the parked cases with the answers that came back. Everything is kept in
 * the run's store, so a stopped process picks up where it was:
 * - the round is saved before anything is sent, and every batch id as soon as it is made: a
 *   restart polls a submitted round (its requests recomputed by a replay pass), never sends it
 *   again;
 * - a round's answers are appended (with the round) before it is marked answered; while it is
 *   out, a restart leaves aside any of its answers a crash saved before that mark
 *   (`known-answers.ts`);
 * - a call's log line is written by the pass that first uses its answer: the pass after its
 *   round, also after a restart; a replay pass that only recomputes a sent round logs nothing;
 *   a pass started again after a crash cut it short skips the lines the cut pass wrote
 *   (`log-once.ts`);
 * - a pass that stops the run on a request failed for good marks the last answered round
 *   (`stopped_on_failure`): the next start asks those failures again, with the attempts of a
 *   fresh start, as an interactive rerun does (`known-answers.ts`, `client.ts`).
 */
import { UsageError } from '../errors';
import { coded } from '../said';
import { longestChain } from './chain';
import { askedBefore, knownAnswers, reportedRound } from './known-answers';
import { logOnce } from './log-once';
import { roundOutcome } from './outcome';
import { batchPass, batchRunKey, type BatchRunOptions } from './pass';
import type { BatchRound, BatchState } from './store';
import type { RunStagesResult } from '../engine/open-engine';
import { noAnswer, type RoundSender } from './sender';

export type { BatchRunOptions } from './pass';
export type { RoundSender } from './sender';

export type BatchRunResult =
	| { done: true; result: RunStagesResult; rounds: number; longestChain: number }
	/** Files mode: the round's outputs are to be imported (`importBatchOutputs`). */
	| { done: false; waiting: BatchRound; rounds: number };

export interface BatchRunEvents {
	/** Told the saved state after every change (a round sent, polled, answered). */
	onRound?(state: BatchState): void;
}

/**
 * Whether a round went out whole: its files hold all its requests, each file written (files
 * mode) or uploaded (provider: a round saves each file's hash before its upload and its id
 * after; one without an id is an upload a crash cut short, and a file not listed yet is one a
 * crash came before).
 */
function wholly(round: BatchRound): boolean {
	const lines = round.files.reduce((sum, f) => sum + f.lines, 0);
	return (
		round.files.length > 0 &&
		lines === round.requests &&
		round.files.every((f) => round.mode === 'files' || f.file_id)
	);
}

/** The round still out (written or submitted), if the last one is. */
export function openRound(state: BatchState): BatchRound | null {
	const last = state.rounds.at(-1);
	return last && (last.status === 'written' || last.status === 'submitted') ? last : null;
}

export async function runBatch(
	options: BatchRunOptions,
	sender: RoundSender,
	events: BatchRunEvents = {}
): Promise<BatchRunResult> {
	const { store } = options;
	const run = await batchRunKey(options);
	const now = options.now ?? (() => new Date());
	let state: BatchState = (await store.readBatchState(run)) ?? { version: 1, rounds: [] };
	const out = openRound(state);
	const answers = knownAnswers(
		await store.readBatchAnswers(run),
		out && out.files.length > 0 ? out.round : null
	);
	const askAgain = askedBefore(answers, reportedRound(state));
	const save = async (round: BatchRound) => {
		const rounds = state.rounds.filter((r) => r.round !== round.round);
		state = { version: 1, rounds: [...rounds, round].sort((a, b) => a.round - b.round) };
		await store.writeBatchState(run, state);
		events.onRound?.(state);
	};

	for (let first = true; ; first = false) {
		// A round saved before its first batch was made (or file written) was never sent; one
		// whose uploads a crash cut short is sent again, reusing or deleting what it uploaded.
		let round = openRound(state);
		if (round && round.files.length > 0 && round.mode !== sender.mode) {
			throw new UsageError([coded('batch_mode_differs', { round: round.round, mode: round.mode })]);
		}
		const cut = round && !wholly(round) ? round : null;
		if (cut) round = null;
		const last = state.rounds.at(-1);
		const logged = round ? () => false : (id: string) => answers.get(id)?.round === last?.round;
		// Only the first pass of a process can follow a pass that a crash cut short.
		const log = options.callLog === undefined ? store : options.callLog;
		let pass;
		try {
			pass = await batchPass(
				first && !round && last?.status === 'answered'
					? { ...options, callLog: await logOnce(log, run, last.sent_at) }
					: options,
				answers,
				logged,
				askAgain
			);
		} catch (error) {
			// Stopped on a failure (not by the user): the next start asks the failures again.
			const answered = state.rounds.filter((r) => r.status === 'answered').at(-1);
			if (!options.signal?.aborted && answered && !answered.stopped_on_failure) {
				await save({ ...answered, stopped_on_failure: true }).catch(() => {});
			}
			throw error;
		}
		if (pass.done) {
			const rounds = state.rounds.filter((r) => r.status === 'answered').length;
			return {
				done: true,
				result: pass.result,
				rounds,
				longestChain: longestChain(answers.values())
			};
		}
		if (!round) {
			let next: BatchRound = {
				round: cut?.round ?? state.rounds.filter((r) => r.files.length > 0).length + 1,
				mode: sender.mode,
				status: sender.mode === 'files' ? 'written' : 'submitted',
				sent_at: now().toISOString(),
				requests: pass.pending.length,
				chain_ahead: pass.pending.reduce((most, p) => Math.max(most, p.chain ?? 0), 0),
				files: []
			};
			await save(next);
			const files = await sender.send(
				pass.pending,
				next.round,
				options.signal,
				async (files) => {
					await save((next = { ...next, files }));
				},
				cut?.files
			);
			await save((next = { ...next, files }));
			round = next;
		}
		let polled = Promise.resolve();
		const sent = round;
		const got = await sender.collect(sent, pass.pending, options.signal, (files) => {
			polled = polled.then(() => save({ ...sent, files }));
		});
		await polled;
		if (got === null) return { done: false, waiting: sent, rounds: state.rounds.length };
		const byId = new Map(got.map((a) => [a.customId, a]));
		const saved = pass.pending.map((p) => ({
			...(byId.get(p.customId) ?? noAnswer(p.customId)),
			round: sent.round
		}));
		await store.appendBatchAnswers(run, saved);
		for (const a of saved) answers.set(a.customId, a);
		const latest = state.rounds.find((r) => r.round === sent.round) ?? sent;
		await save({ ...latest, status: 'answered', outcome: roundOutcome(saved) });
	}
}

/**
 * What the Run page shows of a batch-mode run (PROTOCOL.md §3, batch mode): the choice of how
 * calls are sent, and the round out now: its number, state, when it was sent, its requests, each
 * file's provider status as polled, and (files mode) the input files to download. Plain data, so
 * it crosses from the run's worker in the snapshot; the files' texts stay in the worker.
 */
import type { BatchRound, BatchSendMode, BatchState } from '../batch/store';

/** How a run's calls are sent: at once, or in rounds (`BatchSendMode`). */
export type BatchChoice = 'interactive' | BatchSendMode;

export const BATCH_CHOICES: readonly BatchChoice[] = ['interactive', 'provider', 'files'];

/** The Progress card's batch part. */
export interface BatchView {
	/** The last round (out, answered or cancelled). */
	round: BatchRound;
	/** Rounds sent so far. */
	rounds: number;
	/** Files mode, round waiting: its input files to download (one per model and endpoint). */
	inputs: { name: string; model: string; lines: number }[];
	/** Requests answered over the run: every answered round's. */
	answered: number;
}

/** The single run's Progress card in batch mode: its rounds (none yet: null) and chain so far. */
export interface BatchCard {
	mode: BatchSendMode;
	view: BatchView | null;
	/** The longest chain of dependent calls among the answers so far (`longestChain`). */
	longestChain: number;
}

/** The view of a saved state; null before its first round. */
export function batchView(state: BatchState, inputs: BatchView['inputs'] = []): BatchView | null {
	const round = state.rounds.at(-1);
	const answered = state.rounds
		.filter((r) => r.status === 'answered')
		.reduce((n, r) => n + r.requests, 0);
	return round ? { round, rounds: state.rounds.length, inputs, answered } : null;
}

/** A `BatchChoice` read back (a plan, a form); anything else is interactive. */
export function readBatchChoice(v: unknown): BatchChoice {
	return (BATCH_CHOICES as readonly unknown[]).includes(v) ? (v as BatchChoice) : 'interactive';
}

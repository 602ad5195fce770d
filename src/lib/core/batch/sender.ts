/**
 * How a round goes out and comes back (PROTOCOL.md §3, batch mode): a provider's Batch API
 * (`provider.ts`) or files run elsewhere (`files-sender.ts`); tests give their own.
 */
import type { PendingRequest } from './client';
import type { BatchAnswer } from './output';
import type { BatchRound, BatchRoundFile, BatchSendMode } from './store';

export interface RoundSender {
	readonly mode: BatchSendMode;
	/**
	 * Sends (provider: upload + create batches) or writes (files) a round's input files and
	 * returns them (with `file_id`/`batch_id` in provider mode). `onFiles` is told the files
	 * before each upload, after it and as each batch is made, so the caller saves every upload
	 * and batch id before the next is made: a crash never leaves an upload or a batch the saved
	 * state does not name. `earlier`: the files a send of this round that a crash cut short
	 * saved (provider: reused when the same, deleted when not).
	 */
	send(
		requests: readonly PendingRequest[],
		round: number,
		signal?: AbortSignal,
		onFiles?: (files: BatchRoundFile[]) => Promise<void>,
		earlier?: readonly BatchRoundFile[]
	): Promise<BatchRoundFile[]>;
	/**
	 * The answers of a sent round: provider polls its batches by the saved ids (a round
	 * submitted yesterday is polled, never submitted again) and reads output and error files;
	 * files mode returns null (the round waits for its outputs to be imported). `onPoll` is told
	 * each file's provider status as polled. A request left unanswered counts as failed.
	 */
	collect(
		round: BatchRound,
		pending: readonly PendingRequest[],
		signal?: AbortSignal,
		onPoll?: (files: BatchRoundFile[]) => void
	): Promise<BatchAnswer[] | null>;
	/** Provider: cancels the round's batches (the browser's Stop). */
	cancel?(round: BatchRound): Promise<void>;
}

/** The error answer of a request its round did not answer: failed, retried in a later round. */
export function noAnswer(customId: string): BatchAnswer {
	return { customId, error: { code: 'no_answer', message: 'the round returned no answer' } };
}

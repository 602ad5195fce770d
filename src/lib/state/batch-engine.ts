/**
 * The Run page's batch requests to its engine, on both sides of the worker: a files round's
 * output files to import, one of its input files to download (of a run, or of a plan's runs).
 * `batchReply` answers them; `batchAsker` sends them to a worker and matches the replies.
 */
import type { PlanRunner } from './plan-runner';
import type { RunController } from './run-controller';
import type { BatchReply, ToWorker } from './run-worker-protocol';

type BatchMessage = Extract<ToWorker, { type: 'batch-import' | 'batch-input' }>;
/** A batch message before it is given its id. */
type BatchAsk = BatchMessage extends infer M
	? M extends BatchMessage
		? Omit<M, 'id'>
		: never
	: never;

/** The answer to a batch message, from the run's controller or the plan's runner; a refusal is a rejection. */
export async function batchReply(
	c: RunController,
	plan: PlanRunner,
	message: BatchMessage
): Promise<BatchReply> {
	if (message.type === 'batch-input') {
		const { index, name } = message;
		return { ok: true, text: index === undefined ? c.batchInput(name) : plan.input(index, name) };
	}
	if (!message.request) return { ok: true, planImported: await plan.importOutputs(message.files) };
	return { ok: true, imported: await c.importBatch(message.request, message.files) };
}

/** Sends batch messages through `post` and resolves each with its reply (`settle`). */
export function batchAsker(post: (message: BatchMessage) => void) {
	let next = 0;
	const waiting = new Map<number, (reply: BatchReply) => void>();
	return {
		ask(message: BatchAsk): Promise<BatchReply> {
			const id = ++next;
			return new Promise((resolve) => {
				waiting.set(id, resolve);
				post({ ...message, id } as BatchMessage);
			});
		},
		settle(id: number, reply: BatchReply): void {
			waiting.get(id)?.(reply);
			waiting.delete(id);
		},
		/** The worker died: every question is answered with `error`. */
		failAll(reply: BatchReply): void {
			for (const resolve of waiting.values()) resolve(reply);
			waiting.clear();
		}
	};
}

/**
 * The Run page's batch requests to its engine, on both sides of the worker: a files round's
 * output files to import, one of its input files to download (of a run, or of a plan's runs). `batchReply` answers them from a
 * `RunController`; `batchAsker` sends them to a worker and matches the replies.
 */
import type { PlanRunner } from './plan-runner';
import type { RunController } from './run-controller';
import type { BatchReply, ToWorker } from './run-worker-protocol';

type RunBatchMessage = Extract<ToWorker, { type: 'batch-import' | 'batch-input' }>;
/** A plan's batch messages (files mode): its outputs to import, a run's input file. */
export type PlanBatchMessage = Extract<
	ToWorker,
	{ type: 'plan-batch-import' | 'plan-batch-input' }
>;
type BatchMessage = RunBatchMessage | PlanBatchMessage;
/** A batch message before it is given its id. */
type BatchAsk = BatchMessage extends infer M
	? M extends BatchMessage
		? Omit<M, 'id'>
		: never
	: never;

/** The controller's answer to a batch message; a refusal is a rejection (the caller's to word). */
export async function batchReply(c: RunController, message: RunBatchMessage): Promise<BatchReply> {
	if (message.type === 'batch-input') return { ok: true, text: c.batchInput(message.name) };
	const imported = await c.importBatch(message.request, message.files);
	return { ok: true, imported };
}

/** The plan runner's answer to a plan's batch message; a refusal is a rejection. */
export async function planBatchReply(
	plan: PlanRunner,
	message: PlanBatchMessage
): Promise<BatchReply> {
	if (message.type === 'plan-batch-input') {
		return { ok: true, text: plan.input(message.index, message.name) };
	}
	return { ok: true, planImported: await plan.importOutputs(message.files) };
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

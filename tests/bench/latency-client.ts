/**
 * A `ModelClient` wrapper that makes every call take a provider-like time, and records each
 * call so the ideal run time can be computed afterwards (critical-path.ts).
 */
import type { ChatRequest, ChatResult, ModelClient } from '../../src/lib/core/model/types';
import type { TimedCall } from './critical-path';

export interface LatencyOptions {
	/** @default 20 */
	minMs?: number;
	/** @default 40 */
	maxMs?: number;
	/**
	 * Mixed into the per-call hash. A call's latency depends only on the seed and its prompt,
	 * so the same call waits as long in every run, whatever the concurrency.
	 * @default 1
	 */
	seed?: number;
}

export interface LatencyClient {
	client: ModelClient;
	/** Every call made so far, in the order they returned. */
	calls: TimedCall[];
}

/** FNV-1a over UTF-16 code units: a small, stable hash for picking latencies. */
function hash(text: string): number {
	let h = 0x811c9dc5;
	for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
	return h >>> 0;
}

/** `stageOf` names the running stage when a call starts (the engine runs stages in turn). */
export function withLatency(
	inner: ModelClient,
	stageOf: () => string,
	{ minMs = 20, maxMs = 40, seed = 1 }: LatencyOptions = {}
): LatencyClient {
	const calls: TimedCall[] = [];
	const client: ModelClient = {
		simulated: inner.simulated,
		async complete(request: ChatRequest): Promise<ChatResult> {
			const stage = stageOf();
			const latencyMs = minMs + (hash(`${seed}\u0000${request.prompt}`) % (maxMs - minMs + 1));
			const start = performance.now();
			// The simulated answer is made first and inside the latency, as a remote provider's
			// work would be, so it is not billed to the engine.
			const result = await inner.complete(request);
			const left = latencyMs - (performance.now() - start);
			if (left > 0) await new Promise((resolve) => setTimeout(resolve, Math.ceil(left)));
			calls.push({
				stage,
				caseNumber: request.caseNumber,
				latencyMs,
				start,
				end: performance.now()
			});
			return result;
		}
	};
	return { client, calls };
}

/**
 * What the end-to-end run benches share (the CLI's `cli-run.bench.ts`, the browser's
 * `browser-run.bench.ts`): the fake provider answering every call in `LATENCY_MS` with the
 * simulated provider's text, the dataset file, and the ideal run time
 *
 *   ideal = max(calls × latency / concurrency, longest case chain × latency)
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { simulatedScript } from '../engine/simulated-script';
import { byTask } from '../fake-openai/by-task';
import { startFakeOpenAI, type FakeOpenAI } from '../fake-openai/server';
import { syntheticDataset } from './synthetic-dataset';

/** Every call of the fake provider takes this long. */
export const LATENCY_MS = 100;

/**
 * The fake provider of the run benches: simulated answers, each after `LATENCY_MS`. `arrivals`
 * gets the `Date.now()` of every chat request as it comes in. `transport: 'h2'` serves HTTP/2
 * over TLS (self-signed), as hosted providers do; the default is plain HTTP/1.1.
 */
export async function startLatencyFake(
	options: { requireKey?: string; arrivals?: number[]; transport?: 'http1' | 'h2' } = {}
): Promise<FakeOpenAI> {
	const simulated = byTask(simulatedScript);
	const { arrivals, ...serverOptions } = options;
	return startFakeOpenAI({
		...serverOptions,
		handler: async (req) => {
			arrivals?.push(Date.now());
			return { ...(await simulated(req)), delayMs: LATENCY_MS };
		}
	});
}

/** The dataset file of `cases` synthetic cases: the very bytes `benchDataset` loads. */
export async function datasetFile(dir: string, cases: number): Promise<string> {
	const path = join(dir, `synthetic-${cases}.json`);
	await writeFile(path, JSON.stringify(syntheticDataset(cases)));
	return path;
}

/**
 * The longest chain of one case, in calls: gen's a1 → LCA → per clarification round a user reply
 * and (rounds 1–2) a new response and its label, or (round 3) the forced one, then the LJP of the
 * interaction; dcg's four (the two judges run together); Direct's and Gold's two.
 */
export function longestChain(interactions: readonly { rounds: { label: string }[] }[]): number {
	let longest = 4;
	for (const { rounds } of interactions) {
		let chain = 2;
		for (const [i, round] of rounds.entries()) {
			if (round.label === 'clarification') chain += i + 1 < 3 ? 3 : 2;
		}
		longest = Math.max(longest, chain + 1);
	}
	return longest;
}

export interface IdealRun {
	/** calls × latency / concurrency. */
	byCallsMs: number;
	/** The longest chain × latency. */
	byChainMs: number;
	idealMs: number;
	/** `calls-bound` or `chain-bound, N calls`, for the row's name. */
	bound: string;
}

/** The ideal wall time of a run of `calls` calls whose longest case chain is `chain` calls. */
export function idealRun(calls: number, chain: number, concurrency: number): IdealRun {
	const byCallsMs = (calls * LATENCY_MS) / concurrency;
	const byChainMs = chain * LATENCY_MS;
	return {
		byCallsMs,
		byChainMs,
		idealMs: Math.max(byCallsMs, byChainMs),
		bound: byCallsMs >= byChainMs ? 'calls-bound' : `chain-bound, ${chain} calls`
	};
}

/**
 * The most calls in flight at once, each call taken as `LATENCY_MS` from its arrival (what the
 * fake server holds it): how much of the concurrency reached the provider.
 */
export function mostInFlight(arrivals: readonly number[]): number {
	const sorted = [...arrivals].sort((a, b) => a - b);
	let most = 0;
	let first = 0;
	for (let i = 0; i < sorted.length; i++) {
		while (sorted[first] + LATENCY_MS <= sorted[i]) first++;
		most = Math.max(most, i - first + 1);
	}
	return most;
}

/**
 * Tokens per call measured in the runs saved in this browser, from their call logs: the plan's
 * estimate before Start prices its calls with them (per model id, whatever role it played). Only
 * answered calls whose provider reported usage count. At most `MAX_RUNS_READ` runs are read, so a
 * browser full of runs does not hold up the Run page; a log that cannot be
 * read is left out, never an error.
 */
import { isCallLog } from '$lib/core/calls/types';
import type { RunKey } from '$lib/core/layout';
import type { TokensPerCall } from './plan-cost';

export const MAX_RUNS_READ = 40;

export interface MeasuredTokens {
	perCall: TokensPerCall;
	/** Runs whose log taught something. */
	runs: number;
}

export async function measuredTokens(
	store: unknown,
	runs: readonly RunKey[]
): Promise<MeasuredTokens> {
	// A model id is provider text: a Map, so `__proto__` is a model like any other.
	const sums = new Map<string, { calls: number; prompt: number; completion: number }>();
	let taught = 0;
	if (!isCallLog(store)) return { perCall: {}, runs: 0 };
	for (const run of runs.slice(-MAX_RUNS_READ)) {
		let entries;
		try {
			entries = await store.readCalls(run);
		} catch {
			continue;
		}
		let any = false;
		for (const e of entries) {
			if (e.response === null || !e.usage) continue;
			const s = sums.get(e.model) ?? { calls: 0, prompt: 0, completion: 0 };
			sums.set(e.model, s);
			s.calls++;
			s.prompt += e.usage.prompt;
			s.completion += e.usage.completion;
			any = true;
		}
		if (any) taught++;
	}
	const perCall: TokensPerCall = Object.fromEntries(
		[...sums].map(([model, s]) => [
			model,
			{ prompt: s.prompt / s.calls, completion: s.completion / s.calls }
		])
	);
	return { perCall, runs: taught };
}

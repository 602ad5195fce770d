/**
 * What a plan costs before Start, for the Run page: its calls (the call estimate of one run times
 * its runs), its tokens and its money. A model's tokens per call are those its earlier runs
 * measured; a model never run here takes each role's tokens per call estimated from the dataset
 * (`$lib/core/calls/token-estimate`: its prompts through the prompt pack, answers up to
 * `max_tokens`), so a price gives a low–high range before any call. During the run the session
 * counts the spend (`SessionSnapshot.spend`); its calls teach the measured tokens that replace
 * the dataset's guess in the next estimate.
 */
import type { Prices, TokenCount } from '$lib/core/calls/cost';
import { costOf } from '$lib/core/calls/cost';
import type { SessionSnapshot } from '$lib/core/session';
import { ROLES, type Role } from '$lib/core/record-names';
import type { TokenRange } from '$lib/core/calls/token-estimate';
import type { CallEstimate, CallRange } from './call-estimate';

/** Mean tokens of one call, per model id (whatever role it played). */
export type TokensPerCall = Record<string, TokenCount>;

export interface PlanEstimate {
	calls: CallRange;
	/** Prompt + completion tokens; null while a model's tokens per call are unknown. */
	tokens: CallRange | null;
	/** Null while tokens or a price are unknown. */
	cost: CallRange | null;
	/** Models that make calls and whose tokens per call come from the dataset, not a measure. */
	fromDataset: string[];
}

/**
 * The estimate of runs played by `runs`' models, each making `perRun`'s calls: a model's measured
 * tokens per call (`perCall`), else its role's from the dataset (`fromDataset`), else none.
 */
export function planEstimate(
	perRun: CallEstimate,
	runs: readonly { models: Record<Role, string> }[],
	perCall: TokensPerCall,
	prices: Prices,
	fromDataset: Record<Role, TokenRange> | null = null
): PlanEstimate {
	const guessed = new Set<string>();
	const calls = { min: perRun.total.min * runs.length, max: perRun.total.max * runs.length };
	let tokens: CallRange | null = { min: 0, max: 0 };
	let cost: CallRange | null = { min: 0, max: 0 };
	for (const run of runs) {
		for (const role of ROLES) {
			const n = perRun.byRole[role];
			if (n.max === 0) continue;
			const model = run.models[role];
			const measured = Object.hasOwn(perCall, model) ? perCall[model] : null;
			const t: TokenRange | null = measured
				? { min: measured, max: measured }
				: (fromDataset?.[role] ?? null);
			if (!measured && t) guessed.add(model);
			const price = Object.hasOwn(prices.models, model) ? prices.models[model] : null;
			if (!t) tokens = cost = null;
			if (!tokens || !t) continue;
			tokens.min += n.min * (t.min.prompt + t.min.completion);
			tokens.max += n.max * (t.max.prompt + t.max.completion);
			if (!price) cost = null;
			if (!cost || !price) continue;
			cost.min += n.min * costOf(t.min, price);
			cost.max += n.max * costOf(t.max, price);
		}
	}
	return { calls, tokens, cost, fromDataset: [...guessed] };
}

/** Tokens per call of each model that made calls in `snapshot`, added to `into`. */
export function learnTokensPerCall(
	snapshot: SessionSnapshot,
	runs: readonly { models: Record<Role, string> }[],
	into: TokensPerCall = {}
): TokensPerCall {
	const sums: Record<string, { calls: number; t: TokenCount }> = {};
	snapshot.runs.forEach((row, i) => {
		if (!row.run || !runs[i]) return;
		for (const role of ROLES) {
			const calls = row.run.calls.byRole[role];
			if (calls === 0) continue;
			const s = (sums[runs[i].models[role]] ??= { calls: 0, t: { prompt: 0, completion: 0 } });
			s.calls += calls;
			s.t.prompt += row.run.tokens[role].prompt;
			s.t.completion += row.run.tokens[role].completion;
		}
	});
	const out = { ...into };
	for (const [model, s] of Object.entries(sums)) {
		out[model] = { prompt: s.t.prompt / s.calls, completion: s.t.completion / s.calls };
	}
	return out;
}

/**
 * What calls cost: tokens (prompt and completion) priced per million at each model's price. The
 * Run page prices a plan's tokens so far and its estimate; each role's tokens are billed at the
 * model that played it (a shared judge at the judge's price), as the Results page's leaderboard
 * does. A model without a price adds tokens but no money, and is named.
 */
import type { Price, Prices } from '../leaderboard/prices';
import { ROLES, type Role } from '../record-names';

// One schema of a price and a prices file (`leaderboard/prices.ts`), its types taken here.
export type { Price, Prices };

export interface TokenCount {
	prompt: number;
	completion: number;
}

/** Money for `tokens` at `price` per million tokens. */
export function costOf(tokens: TokenCount, price: Price): number {
	return (tokens.prompt * price.input + tokens.completion * price.output) / 1e6;
}

/** The tokens of one run by role, with the model that played each role. */
export interface RoleTokens {
	models: Record<Role, string>;
	tokens: Record<Role, TokenCount>;
}

export interface Spend {
	tokens: TokenCount;
	/** Money of the priced tokens. */
	cost: number;
	/** Models that used tokens and have no price: `cost` leaves them out. */
	unpriced: string[];
}

/** Tokens and money of `runs` at `prices`. */
export function spendOf(runs: readonly RoleTokens[], prices: Prices): Spend {
	const tokens: TokenCount = { prompt: 0, completion: 0 };
	const unpriced = new Set<string>();
	let cost = 0;
	for (const run of runs) {
		for (const role of ROLES) {
			const t = run.tokens[role];
			if (t.prompt + t.completion === 0) continue;
			tokens.prompt += t.prompt;
			tokens.completion += t.completion;
			const model = run.models[role];
			const price = Object.hasOwn(prices.models, model) ? prices.models[model] : null;
			if (price) cost += costOf(t, price);
			else unpriced.add(model);
		}
	}
	return { tokens, cost, unpriced: [...unpriced].sort() };
}

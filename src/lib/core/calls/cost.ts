/**
 * What calls cost: tokens (prompt and completion) priced per million at each model's price. The
 * Run page prices a plan's tokens so far and its estimate; each role's tokens are billed at the
 * model that played it (a shared judge at the judge's price), as the Results page's leaderboard
 * does. A model without a price adds tokens but no money, and is named.
 */
import type { Price, Prices } from '../leaderboard/prices';

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

/**
 * Prices per million tokens the user typed on the Results page, remembered in this browser only
 * (localStorage), in the `--prices FILE` shape. What is read back is validated like the file.
 */
import { parsePrices, type Prices } from '$lib/core/leaderboard/prices';

export const PRICES_KEY = 'lexpilot-leaderboard-prices';

export function savedPrices(): Prices {
	try {
		const text = globalThis.localStorage?.getItem(PRICES_KEY);
		return text ? parsePrices(text, PRICES_KEY) : { models: {} };
	} catch {
		return { models: {} };
	}
}

export function savePrices(prices: Prices): void {
	try {
		globalThis.localStorage?.setItem(PRICES_KEY, JSON.stringify(prices));
	} catch {
		// Storage full or blocked: the prices stay for this page only.
	}
}

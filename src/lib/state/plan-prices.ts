/**
 * Prices per million tokens per model and an optional spending cap, typed on the Run page and
 * remembered in this browser (localStorage) in the `--prices FILE` shape, under the key the
 * Results page's price entry uses, so a price typed on either page is the other's too. What is
 * read back is checked field by field: a bad entry is dropped, never trusted.
 */
import type { Price, Prices } from '$lib/core/calls/cost';

export const PRICES_KEY = 'lexpilot-leaderboard-prices';
type Storage = Pick<globalThis.Storage, 'getItem' | 'setItem'> | null;

const amount = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0;

/** The remembered prices; entries that are not two amounts ≥ 0 are left out. */
export function loadPrices(storage: Storage): Prices {
	try {
		const v: unknown = JSON.parse(storage?.getItem(PRICES_KEY) ?? '{}');
		const models = (v as { models?: unknown })?.models;
		if (typeof models !== 'object' || models === null) return { models: {} };
		const out: Record<string, Price> = {};
		for (const [id, p] of Object.entries(models).slice(0, 1000)) {
			const price = p as Partial<Price> | null;
			if (id.length <= 300 && amount(price?.input) && amount(price?.output)) {
				out[id] = { input: price.input, output: price.output };
			}
		}
		const currency = (v as { currency?: unknown }).currency;
		return typeof currency === 'string' && currency.length > 0 && currency.length <= 12
			? { currency, models: out }
			: { models: out };
	} catch {
		return { models: {} };
	}
}

export function savePrices(storage: Storage, prices: Prices): void {
	try {
		storage?.setItem(PRICES_KEY, JSON.stringify(prices));
	} catch {
		// Storage full or blocked: the prices stay for this page only.
	}
}

/** A price or cap as typed: a number ≥ 0, or null for empty or anything else. */
export function parseAmount(text: string): number | null {
	const t = text.trim();
	if (t === '') return null;
	const n = Number(t);
	return amount(n) ? n : null;
}

import { describe, expect, it } from 'vitest';
import { forestAxis, forestSvg } from './forest-plot';
import type { PaperRow } from '$lib/core/leaderboard/paper-table';

describe('forestAxis', () => {
	it.each([
		[0.2783, 0.5585, [0.2, 0.3, 0.4, 0.5, 0.6], 1],
		[-0.422, 0.2545, [-0.6, -0.4, -0.2, 0, 0.2, 0.4], 1],
		[0.81, 0.83, [0.81, 0.815, 0.82, 0.825, 0.83], 3],
		[0.5, 0.5, [0.45, 0.475, 0.5, 0.525, 0.55], 3],
		[0, 1, [0, 0.25, 0.5, 0.75, 1], 2]
	])('%f to %f: round ticks %j', (lo, hi, ticks, decimals) => {
		const axis = forestAxis(lo, hi);
		expect(axis.ticks).toEqual(ticks);
		expect(axis.decimals).toBe(decimals);
	});
});

describe('forestSvg', () => {
	it('labels its axis with round values, each written once', () => {
		const cell = { mean: 0.4256, sd: 0.1, ci95: [0.2783, 0.5585], best: true } as const;
		const row = { id: 'model-a', cells: { lca_macro_f1: cell } } as unknown as PaperRow;
		const svg = forestSvg([row], 'lca_macro_f1', 'LCA Macro-F1');
		const ticks = [...svg.matchAll(/text-anchor="middle" fill="#5a6475">([^<]+)</g)].map(
			(m) => m[1]
		);
		expect(ticks).toEqual(['0.2', '0.3', '0.4', '0.5', '0.6']);
	});
});

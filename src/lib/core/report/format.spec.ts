import { describe, expect, it } from 'vitest';
import { syntheticPlan } from '../../../../tests/support/leaderboard-runs';
import { moneyText } from '../leaderboard/cells';
import type { RowCost } from '../leaderboard/costs';
import { leaderboardCsv, leaderboardLatex, leaderboardMarkdown } from '../leaderboard/exports';
import { computeLeaderboard, type Leaderboard } from '../leaderboard/leaderboard';
import { formatLeaderboard } from '../leaderboard/format-text';
import { paperTable } from '../leaderboard/paper-table';
import { formatCount, formatDate, formatInterval, formatNumber } from './format';

describe('formatNumber', () => {
	it.each([
		[0.12345, {}, '0.1235'],
		[null, {}, '—'],
		[undefined, {}, '—'],
		[Number.NaN, {}, '—'],
		[-1e-17, {}, '0.0000'],
		[-0.25, {}, '-0.2500'],
		[2.5, 1, '2.5'],
		[-0.25, { decimals: 1, typeset: true }, '\u22120.3'],
		[-0.04, { decimals: 1, typeset: true }, '0.0'],
		// Differences: a sign always, a space for whatever rounds to zero (never "-0.0000").
		[0.12345, { signed: true }, '+0.1235'],
		[-0.5, { signed: true }, '-0.5000'],
		[0, { signed: true }, ' 0.0000'],
		[-1e-17, { signed: true }, ' 0.0000'],
		[-0.00004, { signed: true }, ' 0.0000']
	] as const)('prints %d (%o) as "%s"', (v, style, text) =>
		expect(formatNumber(v, style)).toBe(text)
	);

	it('writes intervals and counts', () => {
		expect(formatInterval([0.57, 0.66])).toBe('[0.5700, 0.6600]');
		expect(formatInterval(null)).toBe('—');
		expect(formatInterval([-0.1, 0.2], { signed: true })).toBe('[-0.1000, +0.2000]');
		expect(formatCount(1234567.4)).toBe('1,234,567');
		expect(formatCount(null)).toBe('—');
	});
});

describe('a figure that is not finite', () => {
	it.each([Infinity, -Infinity, Number.NaN])('%d reads "—" in every formatter', (v) => {
		expect([formatNumber(v), formatNumber(v, 2), moneyText(v), formatCount(v)]).toEqual([
			'—',
			'—',
			'—',
			'—'
		]);
	});

	it('is never printed as a cost: text, Markdown, LaTeX and CSV', () => {
		const lb: Leaderboard = computeLeaderboard(syntheticPlan({ strong: 0.9, weak: 0.5 }, 2, 40), {
			bootstrap: { resamples: 50 },
			classes: false
		});
		const board = lb.boards[0];
		const tokens = { prompt: 1e6, completion: 1e6 };
		const cost: RowCost = {
			runs_with_log: 2,
			calls: 10,
			no_usage: 0,
			tokens,
			by_role: { evaluated: tokens, user: tokens, judge: tokens },
			by_stage: {},
			tokens_per_run: Infinity,
			cost: Infinity,
			cost_per_run: Infinity,
			missing_prices: []
		};
		const costs = Object.fromEntries(board.overall.rows.map((r) => [r.id, cost]));
		const rows = paperTable(board.overall, 'lca_acc_u', costs);
		const text = formatLeaderboard(lb, { sort: 'lca_acc_u', cls: null, costs: [costs] });
		for (const out of [
			text,
			leaderboardMarkdown(rows),
			leaderboardLatex(rows),
			leaderboardCsv(rows)
		]) {
			expect(out).not.toMatch(/Infinity|∞|NaN/);
		}
		expect(text).toContain('Cost/run');
	});
});

describe('formatDate', () => {
	it('writes a saved run’s ISO time in the language asked for, not as ISO', () => {
		const iso = '2026-12-05T14:39:00.941Z';
		for (const locale of ['zh-CN', 'en']) {
			const text = formatDate(iso, locale);
			expect(text).not.toMatch(/\d{4}-\d\d-\d\dT/);
			expect(text).toContain('2026');
		}
		expect(formatDate(iso, 'zh-CN')).toMatch(/2026年12月\d+日/);
		expect(formatDate(Date.parse(iso), 'en', { time: 'short' })).not.toContain('2026');
	});

	it('keeps what is no date as it is', () => {
		expect(formatDate('yesterday', 'en')).toBe('yesterday');
	});
});

import { describe, expect, it } from 'vitest';
import { makeCallEntry } from '../../../../tests/support/record-factories';
import { syntheticRun } from '../../../../tests/support/leaderboard-runs';
import { callTotals } from '../calls/totals';
import { UsageError } from '../errors';
import { costOf, costsOfBoards, leaderboardCosts, rowCost } from './costs';
import { computeLeaderboard } from './leaderboard';
import { parsePrices } from './prices';

function runWithCalls(model: string, runId: string, calls: Parameters<typeof makeCallEntry>[0][]) {
	const run = syntheticRun({ model, runId, skill: 0.5 }, 4);
	return { ...run, run: { ...run.run, calls: callTotals(calls.map(makeCallEntry)) } };
}

const PRICES = {
	currency: 'USD',
	models: {
		m: { input: 2, output: 8 },
		'sim-user': { input: 1, output: 1 },
		'sim-judge': { input: 0.5, output: 4 }
	}
};

describe('costs', () => {
	it('prices a million tokens at the per-million price', () => {
		expect(costOf({ prompt: 1_000_000, completion: 0 }, { input: 2.5, output: 10 })).toBe(2.5);
		expect(costOf({ prompt: 2000, completion: 500 }, { input: 3, output: 15 })).toBeCloseTo(
			0.0135,
			15
		);
	});

	it('bills each role at the model that played it, summed over runs and split by stage', () => {
		const runs = [
			runWithCalls('m', 'run1', [
				{ role: 'evaluated', stage: 'gen', usage: { prompt: 1000, completion: 100 } },
				{ role: 'user', stage: 'gen', usage: { prompt: 300, completion: 30 } },
				{ role: 'judge', stage: 'dcg', usage: { prompt: 2000, completion: 10 } }
			]),
			runWithCalls('m', 'run2', [
				{ role: 'evaluated', stage: 'gen', usage: { prompt: 3000, completion: 300 } }
			])
		];
		const cost = rowCost(runs, PRICES);
		const expected =
			(4000 * 2 + 400 * 8) / 1e6 + (300 * 1 + 30 * 1) / 1e6 + (2000 * 0.5 + 10 * 4) / 1e6;
		expect(cost.cost).toBeCloseTo(expected, 15);
		expect(cost.cost_per_run).toBeCloseTo(expected / 2, 15);
		expect(cost.tokens).toEqual({ prompt: 6300, completion: 440 });
		expect(cost.tokens_per_run).toBe(6740 / 2);
		expect(cost.by_role.judge).toEqual({ prompt: 2000, completion: 10 });
		expect(cost.by_stage.gen.evaluated).toEqual({ prompt: 4000, completion: 400 });
		expect(cost.by_stage.dcg).toEqual({ judge: { prompt: 2000, completion: 10 } });
	});

	it('has no cost when a model used has no price, and names it', () => {
		const runs = [
			runWithCalls('m', 'run1', [{ role: 'judge', usage: { prompt: 10, completion: 1 } }])
		];
		const cost = rowCost(runs, { models: { m: { input: 1, output: 1 } } });
		expect([cost.cost, cost.missing_prices]).toEqual([null, ['sim-judge']]);
		expect(rowCost(runs, null).cost).toBeNull();
		expect(rowCost([syntheticRun({ model: 'm', runId: 'r', skill: 0 }, 4)], PRICES)).toMatchObject({
			runs_with_log: 0,
			tokens_per_run: null,
			cost: null
		});
	});

	it('keys costs by the leaderboard’s row ids', () => {
		const runs = [runWithCalls('m', 'run1', [{}]), runWithCalls('n', 'run1', [{}])];
		expect(Object.keys(leaderboardCosts(runs, null)[0])).toEqual(['m', 'n']);
	});

	it('costs the rows of computed boards as the split of the runs does', () => {
		const runs = [
			runWithCalls('m', 'run1', [{}, { role: 'judge', model: 'sim-judge' }]),
			runWithCalls('n', 'run1', [{}]),
			runWithCalls('m', 'run2', [{ usage: { prompt: 7, completion: 3 } }])
		];
		const { boards } = computeLeaderboard(runs, { bootstrap: { resamples: 10 }, classes: false });
		for (const prices of [PRICES, null]) {
			expect(costsOfBoards(boards, runs, prices)).toEqual(leaderboardCosts(runs, prices));
		}
		expect(costsOfBoards(boards, runs, PRICES)[0].m.runs_with_log).toBe(2);
	});
});

describe('prices file', () => {
	it('reads a valid file', () => {
		expect(parsePrices(JSON.stringify(PRICES), 'p.json')).toEqual(PRICES);
	});

	it.each([
		['{', 'prices p.json: '],
		['{"models":{"m":{"input":-1,"output":1}}}', 'prices p.json, field "models"."m"."input": '],
		['{"models":{"m":{"input":1}}}', 'prices p.json, field "models"."m"."output": '],
		['{"models":{},"extra":1}', 'prices p.json: '],
		['[]', 'prices p.json: ']
	])('names the place of a problem in %s', (text, start) => {
		expect(() => parsePrices(text, 'p.json')).toThrow(UsageError);
		expect(() => parsePrices(text, 'p.json')).toThrow(start);
	});
});

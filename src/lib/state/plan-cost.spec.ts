import { describe, expect, it } from 'vitest';
import type { SessionSnapshot } from '$lib/core/session';
import { loadDataset } from '$lib/core/dataset/load';
import { DEFAULT_PROMPT_PACK } from '$lib/core/prompts';
import { datasetTokensPerCall } from '$lib/core/calls/token-estimate';
import { datasetBytes, validCases } from '../../../tests/fixtures/datasets/factory';
import { estimateCalls } from './call-estimate';
import { learnTokensPerCall, planEstimate } from './plan-cost';
import { loadPrices, parseAmount, PRICES_KEY, savePrices } from './plan-prices';

const models = (evaluated: string) => ({ evaluated, user: 'u', judge: 'j' });
const runs = [{ models: models('a') }, { models: models('b') }];

function snapshot(): SessionSnapshot {
	const mode = 'interactive' as const;
	const run = (ev: number, judge: number) =>
		({
			calls: { byRole: { evaluated: 2, user: 0, judge: 1 } },
			tokens: {
				evaluated: { prompt: ev, completion: ev / 10 },
				user: { prompt: 0, completion: 0 },
				judge: { prompt: judge, completion: 0 }
			}
		}) as unknown as NonNullable<SessionSnapshot['runs'][number]['run']>;
	return {
		status: 'running',
		runs: [
			{ runId: 'r1', model: 'a', repetition: 1, mode, status: 'running', run: run(2000, 500) },
			{ runId: 'r1', model: 'b', repetition: 1, mode, status: 'queued', run: null }
		],
		calls: { done: 3, estimatedTotal: 10, perSecond: null },
		etaMs: null,
		underWay: 0,
		endpoints: [],
		spend: null,
		startedAt: 0,
		elapsedMs: 0
	};
}

describe('plan cost', () => {
	it('estimate: calls of one run × runs; tokens and cost once tokens per call are known', () => {
		const perRun = estimateCalls(['ljp-direct'], 4); // 4 evaluated + 4 judge calls per run
		const none = planEstimate(perRun, runs, {}, { models: {} });
		expect(none).toEqual({
			calls: { min: 16, max: 16 },
			tokens: null,
			cost: null,
			fromDataset: []
		});
		const perCall = learnTokensPerCall(snapshot(), runs);
		expect(perCall).toEqual({
			a: { prompt: 1000, completion: 100 },
			j: { prompt: 500, completion: 0 }
		});
		// b's tokens per call are unknown yet: no tokens for the plan.
		expect(planEstimate(perRun, runs, perCall, { models: {} }).tokens).toBeNull();
		const known = { ...perCall, b: { prompt: 100, completion: 0 } };
		const prices = {
			models: { a: { input: 1, output: 1 }, b: { input: 1, output: 1 }, j: { input: 1, output: 1 } }
		};
		const e = planEstimate(perRun, runs, known, prices);
		const tokens = 4 * 1100 + 4 * 500 + 4 * 100 + 4 * 500;
		expect(e.tokens).toEqual({ min: tokens, max: tokens });
		expect(e.cost!.min).toBeCloseTo(tokens / 1e6, 12);
		expect(planEstimate(perRun, runs, known, { models: {} }).cost).toBeNull();
	});

	it('a model never run here: tokens and a low–high cost from the dataset, a measure wins', async () => {
		const loaded = await loadDataset(datasetBytes(validCases(3)));
		if (!loaded.ok) throw new Error('the factory dataset loads');
		const fromDataset = datasetTokensPerCall(loaded.dataset.cases, DEFAULT_PROMPT_PACK, 1000)!;
		const perRun = estimateCalls(['ljp-direct'], 4); // 4 evaluated + 4 judge calls per run
		const prices = {
			models: { a: { input: 1, output: 2 }, b: { input: 1, output: 2 }, j: { input: 1, output: 2 } }
		};
		const e = planEstimate(perRun, runs, {}, prices, fromDataset);
		expect(e.fromDataset.sort()).toEqual(['a', 'b', 'j']);
		const { evaluated: ev, judge } = fromDataset;
		// Low end: the prompts, no answer; high end: every answer (and answer slot) at max_tokens.
		const low = 2 * 4 * (ev.min.prompt + judge.min.prompt);
		const high = 2 * 4 * (ev.max.prompt + 1000 + judge.max.prompt + 1000);
		expect(e.tokens!.min).toBeCloseTo(low, 6);
		expect(e.tokens!.max).toBeCloseTo(high, 6);
		expect(e.cost!.min).toBeCloseTo(low / 1e6, 12);
		expect(e.cost!.max).toBeCloseTo((high + 2 * 4 * 2000) / 1e6, 12);
		expect(e.cost!.min).toBeGreaterThan(0);
		expect(e.cost!.max).toBeGreaterThan(e.cost!.min);
		// Measured tokens of a replace the dataset's guess for it alone.
		const measured = planEstimate(
			perRun,
			runs,
			{ a: { prompt: 10, completion: 1 } },
			prices,
			fromDataset
		);
		expect(measured.fromDataset.sort()).toEqual(['b', 'j']);
		expect(measured.tokens!.min).toBeCloseTo(low - 4 * ev.min.prompt + 4 * 11, 6);
	});

	it('prices are remembered under the Results page’s key; bad entries are dropped', () => {
		const data = new Map<string, string>();
		const s = {
			getItem: (k: string) => data.get(k) ?? null,
			setItem: (k: string, v: string) => void data.set(k, v)
		};
		savePrices(s, { models: { a: { input: 1.5, output: 2 } } });
		expect(JSON.parse(data.get(PRICES_KEY)!)).toEqual({ models: { a: { input: 1.5, output: 2 } } });
		data.set(
			PRICES_KEY,
			JSON.stringify({
				currency: 'EUR',
				models: { a: { input: -1, output: 2 }, b: { input: 1, output: 2 } }
			})
		);
		expect(loadPrices(s)).toEqual({ currency: 'EUR', models: { b: { input: 1, output: 2 } } });
		data.set(PRICES_KEY, 'nope');
		expect(loadPrices(s)).toEqual({ models: {} });
		expect([parseAmount(''), parseAmount('x'), parseAmount('-1'), parseAmount(' 0.5 ')]).toEqual([
			null,
			null,
			null,
			0.5
		]);
	});
});

/**
 * The session's money (`SpendMeter`): the spend of each run's calls at its models' prices, the
 * cap that pauses, and both kept with the plan so a start again continues them.
 */
import { describe, expect, it } from 'vitest';
import { MemoryStore } from '../store/memory-store';
import type { RunSnapshot } from '../engine/types';
import { SpendMeter } from './spend';

const planId = 'a'.repeat(64);
const models = (evaluated: string) => ({ evaluated, user: 'u', judge: 'j' });
const prices = { models: { a: { input: 1, output: 10 }, j: { input: 2, output: 0 } } };

function run(ev: number, judge: number): RunSnapshot {
	return {
		tokens: {
			evaluated: { prompt: ev, completion: ev / 10 },
			user: { prompt: 0, completion: 0 },
			judge: { prompt: judge, completion: 0 }
		}
	} as unknown as RunSnapshot;
}

describe('the spend of a session', () => {
	it('each role at its model’s price; runs not opened add nothing', async () => {
		const meter = new SpendMeter({ store: new MemoryStore(), planId, prices });
		expect(await meter.open()).toBe(false);
		const view = meter.view([
			{ models: models('a'), run: run(2000, 500) },
			{ models: models('b'), run: null }
		]);
		expect(view.tokens).toEqual({ prompt: 2500, completion: 200 });
		expect(view.spent).toBeCloseTo((2000 + 2000 + 1000) / 1e6, 12);
		expect(view.unpriced).toEqual([]);
		expect(view.capped).toBe(false);
	});

	it('passing the cap holds; a start again continues the spend at the saved cap; a higher cap frees', async () => {
		const store = new MemoryStore();
		const first = new SpendMeter({ store, planId, prices, cap: 0.004 });
		expect(await first.open()).toBe(false);
		const view = first.view([{ models: models('a'), run: run(2000, 500) }]);
		expect(view.capped).toBe(true);
		// Saved as it passes the cap: a reload a moment later finds the spend.
		await expect.poll(() => store.readPlanSpend(planId)).toMatchObject({ capped: true });
		expect((await store.readPlanSpend(planId))!.spent).toBeCloseTo(0.005, 12);
		// Opened again with the saved cap: held from the start, the spend continuing.
		const again = new SpendMeter({ store, planId, prices });
		expect(await again.open()).toBe(true);
		expect(again.cap).toBe(0.004);
		const next = again.view([{ models: models('a'), run: run(1000, 0) }]);
		expect(next.spent).toBeCloseTo(0.005 + 0.002, 12);
		expect(again.setCap(1)).toBe(false);
		await again.save();
		expect(await store.readPlanSpend(planId)).toMatchObject({ cap: 1, capped: false });
	});
});

/**
 * The session's money (`SpendMeter`): every answered call priced at the model of its role as it
 * is answered, the cap that pauses, and both kept with the plan so a start again continues them.
 */
import { describe, expect, it } from 'vitest';
import type { ChatRequest, ModelClient } from '../model/types';
import type { Role } from '../record-names';
import { MemoryStore } from '../store/memory-store';
import { SpendMeter } from './spend';

const planId = 'a'.repeat(64);
const models = (evaluated: string) => ({ evaluated, user: 'u', judge: 'j' });
const prices = { models: { a: { input: 1, output: 10 }, j: { input: 2, output: 0 } } };

/** A client answering each call with `prompt` tokens in and a tenth of them out. */
function client(prompt: number): ModelClient {
	return {
		simulated: true,
		complete: async () =>
			({
				text: 'x',
				usage: { promptTokens: prompt, completionTokens: prompt / 10 }
			}) as never
	};
}

/** One call of `role` through `metered`. */
const call = (metered: ModelClient, role: Role) =>
	metered.complete({ role, caseNumber: '1' } as ChatRequest);

describe('the spend of a session', () => {
	it('each role at its model’s price, a model without one named', async () => {
		const meter = new SpendMeter({ store: new MemoryStore(), planId, prices }, () => {});
		expect(await meter.open()).toBe(false);
		const a = meter.meter(client(2000), models('a'));
		await call(a, 'evaluated');
		await call(meter.meter(client(500), models('a')), 'judge');
		await call(meter.meter(client(100), models('b')), 'evaluated');
		const view = meter.view();
		expect(view.tokens).toEqual({ prompt: 2600, completion: 260 });
		// a: 2000 × 1 + 200 × 10; j: 500 × 2 + 50 × 0 (per million).
		expect(view.spent).toBeCloseTo((2000 + 2000 + 1000) / 1e6, 12);
		expect(view.unpriced).toEqual(['b']);
		expect(view.capped).toBe(false);
	});

	it('a cap is passed only above it (none: never)', async () => {
		// One call of 2000 in, 200 out at `a`'s price costs 0.004.
		for (const [cap, capped] of [
			[null, false],
			[0.004, false],
			[0.0039, true]
		] as const) {
			const meter = new SpendMeter({ store: new MemoryStore(), planId, prices, cap }, () => {});
			await meter.open();
			await call(meter.meter(client(2000), models('a')), 'evaluated');
			expect(meter.capped, String(cap)).toBe(capped);
		}
	});

	it('passing the cap holds; a start again continues the spend at the saved cap; a higher cap frees', async () => {
		const store = new MemoryStore();
		let told = 0;
		const first = new SpendMeter({ store, planId, prices, cap: 0.0039 }, () => told++);
		expect(await first.open()).toBe(false);
		await call(first.meter(client(2000), models('a')), 'evaluated');
		expect(first.capped).toBe(true);
		expect(told).toBe(1);
		// Saved as it passes the cap: a reload a moment later finds the spend.
		await expect.poll(() => store.readPlanSpend(planId)).toMatchObject({ capped: true });
		expect((await store.readPlanSpend(planId))!.spent).toBeCloseTo(0.004, 12);
		// A call still under way as it pauses is saved too.
		await call(first.meter(client(500), models('a')), 'judge');
		await expect
			.poll(async () => (await store.readPlanSpend(planId))!.spent)
			.toBeCloseTo(0.005, 12);
		// Opened again with the saved cap: held from the start, the spend continuing.
		const again = new SpendMeter({ store, planId, prices }, () => {});
		expect(await again.open()).toBe(true);
		expect(again.cap).toBe(0.0039);
		await call(again.meter(client(500), models('a')), 'evaluated');
		expect(again.view().spent).toBeCloseTo(0.005 + 0.001, 12);
		expect(again.setCap(1)).toBe(false);
		await again.save();
		expect(await store.readPlanSpend(planId)).toMatchObject({ cap: 1, capped: false });
	});
});

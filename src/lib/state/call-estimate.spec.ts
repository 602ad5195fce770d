import { describe, expect, it } from 'vitest';
import { runStages } from '$lib/core/engine';
import { STAGE_NAMES, type StageName } from '$lib/core/engine/types';
import type { ChatRequest, ModelClient } from '$lib/core/model/types';
import { ROLES } from '$lib/core/records';
import { createSimulatedClient } from '$lib/core/simulated';
import { MemoryStore } from '$lib/core/store/memory-store';
import { makeDataset } from '../../../tests/fixtures/engine/cases';
import { estimateCalls, formatRange } from './call-estimate';

const MODELS = { evaluated: 'm', user: 'u', judge: 'j' };
const ENDPOINTS = { evaluated: 'http://e/v1', user: 'http://e/v1', judge: 'http://e/v1' };

/** Calls the engine really makes for one stage, by role, with the simulated provider. */
async function actualCalls(stage: StageName, cases: number, store = new MemoryStore()) {
	const calls: ChatRequest[] = [];
	const inner = createSimulatedClient();
	const client: ModelClient = {
		simulated: true,
		complete: (r) => (calls.push(r), inner.complete(r))
	};
	const common = {
		dataset: makeDataset(cases),
		client,
		store,
		runId: 'r',
		models: MODELS,
		endpoints: ENDPOINTS
	};
	if (stage === 'ljp-interaction') await runStages({ ...common, stages: ['gen'] });
	calls.length = 0;
	await runStages({ ...common, stages: [stage] });
	return Object.fromEntries(ROLES.map((r) => [r, calls.filter((c) => c.role === r).length]));
}

describe('estimateCalls', () => {
	// lca re-judges only what gen left unjudged, so a complete gen leaves it nothing to compare.
	it.each(STAGE_NAMES.filter((s) => s !== 'lca'))(
		'brackets the calls the engine makes for %s, by role',
		async (stage) => {
			const cases = 12;
			const actual = await actualCalls(stage, cases);
			const est = estimateCalls([stage], cases);
			for (const role of ROLES) {
				// Judges answering in valid JSON are never re-asked, so the bounds hold exactly.
				expect(actual[role]).toBeGreaterThanOrEqual(est.byRole[role].min);
				expect(actual[role]).toBeLessThanOrEqual(est.byRole[role].max);
			}
		}
	);

	it('counts only the cases still to run when some are saved', () => {
		const est = estimateCalls(['dcg', 'ljp-direct'], 10, { dcg: 4, 'ljp-direct': 10 });
		expect(est.stages.map((s) => [s.stage, s.cases, s.calls])).toEqual([
			['dcg', 6, { min: 30, max: 30 }],
			['ljp-direct', 0, { min: 0, max: 0 }]
		]);
		expect(est.total).toEqual({ min: 30, max: 30 });
	});

	it('gives gen a range, since the interaction may end early, and orders stages as the protocol does', () => {
		const est = estimateCalls(['ljp-gold', 'gen'], 100);
		expect(est.stages.map((s) => s.stage)).toEqual(['gen', 'ljp-gold']);
		expect(est.total).toEqual({ min: 600, max: 1400 });
		expect(formatRange(est.total)).toBe('600–1,400');
	});
});

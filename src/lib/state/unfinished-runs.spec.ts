import { describe, expect, it } from 'vitest';
import { runStages } from '$lib/core/engine';
import { createSimulatedClient } from '$lib/core/simulated';
import { MemoryStore } from '$lib/core/store/memory-store';
import { makeDataset } from '../../../tests/fixtures/engine/cases';
import type { RunPlan } from './run-plans';
import { listUnfinished } from './unfinished-runs';

const MODELS = { evaluated: 'm', user: 'u', judge: 'j' };
const ENDPOINTS = { evaluated: 'http://e/v1', user: 'http://e/v1', judge: 'http://e/v1' };

/** A store with run `r1` (gen and dcg on 3 cases) and run `r2` (gen only, on 4 cases). */
async function store() {
	const s = new MemoryStore();
	const common = {
		client: createSimulatedClient(),
		store: s,
		models: MODELS,
		endpoints: ENDPOINTS
	};
	const r1 = await runStages({
		...common,
		dataset: makeDataset(3),
		runId: 'r1',
		stages: ['gen', 'dcg']
	});
	const r2 = await runStages({
		...common,
		dataset: makeDataset(4),
		runId: 'r2',
		limit: 4,
		stages: ['gen']
	});
	return { s, modelDir: r1.run.modelDir, r2 };
}

function plan(runId: string, modelDir: string, edit: Partial<RunPlan> = {}): RunPlan {
	return {
		runId,
		modelDir,
		stages: ['gen', 'dcg'],
		concurrency: 4,
		datasetName: 'cases.json',
		status: 'stopped',
		error: null,
		updatedAt: '2025-01-01T00:00:00.000Z',
		...edit
	};
}

describe('listUnfinished', () => {
	it('lists plans not done whose run is saved, newest first, with cases saved per stage', async () => {
		const { s, modelDir } = await store();
		const items = await listUnfinished(s, [
			plan('r1', modelDir, { updatedAt: '2025-01-01T00:00:00.000Z' }),
			plan('r2', modelDir, {
				stages: ['gen', 'ljp-interaction'],
				updatedAt: '2025-03-01T00:00:00.000Z'
			}),
			plan('gone', modelDir),
			plan('finished', modelDir, { status: 'done' })
		]);
		expect(items.map((i) => [i.plan.runId, i.saved, i.selected])).toEqual([
			['r2', { gen: 4, 'ljp-interaction': 0 }, 4],
			['r1', { gen: 3, dcg: 3 }, 3]
		]);
	});

	it('marks a run another tab holds, and leaves out the run this page shows', async () => {
		const { s, modelDir } = await store();
		const plans = [plan('r1', modelDir), plan('r2', modelDir)];
		const items = await listUnfinished(
			s,
			plans,
			[
				{ runId: 'r1', modelDir },
				{ runId: 'r3', modelDir }
			],
			{ runId: 'r2', modelDir }
		);
		expect(items.map((i) => [i.plan.runId, i.busyElsewhere])).toEqual([['r1', true]]);
	});
});

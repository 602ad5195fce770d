import { describe, expect, it } from 'vitest';
import { runStages } from '$lib/core/engine/run-stages';
import { createSimulatedClient } from '$lib/core/simulated';
import { forwarding } from '$lib/core/forward';
import { MemoryStore } from '$lib/core/store/memory-store';
import { makeDataset } from '../../../tests/fixtures/engine/cases';
import type { RunKey } from '$lib/core/layout';
import type { StageFile } from '$lib/core/records';
import type { CheckpointStore } from '$lib/core/store/types';
import type { RunPlan } from '$lib/core/control/run-plans';
import { listUnfinished } from './unfinished-runs';

const MODELS = { evaluated: 'm', user: 'u', judge: 'j' };
const ENDPOINTS = { evaluated: 'http://e/v1', user: 'http://e/v1', judge: 'http://e/v1' };

/**
 * A store with run `r1` (gen and dcg on 3 cases) and run `r2` (gen only, on 4 cases); plans for
 * them ask for more stages than that (see `plan`), so both are unfinished.
 */
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
		stages: ['gen', 'dcg', 'ljp-gold'],
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
			['r1', { gen: 3, dcg: 3, 'ljp-gold': 0 }, 3]
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

	it('never lists a run whose records cover every selected case, whatever its plan last said', async () => {
		const { s, modelDir } = await store();
		// The tab closed between the last record and writing "done": the plan still says running.
		const items = await listUnfinished(s, [
			plan('r1', modelDir, { stages: ['gen', 'dcg'], status: 'running' }),
			plan('r2', modelDir, { stages: ['gen'], status: 'paused' })
		]);
		expect(items).toEqual([]);
	});

	it('says interrupted, paused or running elsewhere from the plan and the locks held now', async () => {
		const { s, modelDir } = await store();
		const lock = (runId: string) => ({ runId, modelDir });
		const at = (n: number) => `2025-0${n}-01T00:00:00.000Z`;
		const items = await listUnfinished(
			s,
			[
				plan('r1', modelDir, { status: 'running', updatedAt: at(1) }),
				plan('r2', modelDir, { status: 'paused', stages: ['gen', 'dcg'], updatedAt: at(2) })
			],
			[lock('r2')]
		);
		expect(items.map((i) => [i.plan.runId, i.state])).toEqual([
			['r2', 'paused-elsewhere'],
			['r1', 'interrupted']
		]);
		const running = await listUnfinished(
			s,
			[plan('r1', modelDir, { status: 'running' })],
			[lock('r1')]
		);
		expect(running.map((i) => i.state)).toEqual(['running-elsewhere']);
	});

	it('asks which locks are held only after it has read the plans’ records', async () => {
		const { s, modelDir } = await store();
		const events: string[] = [];
		const watched = forwarding<CheckpointStore>(s, {
			readRecords: (run: RunKey, file: StageFile) => {
				events.push('records');
				return s.readRecords(run, file);
			}
		});
		// A run that ended while its records were read has let its lock go by the time it is asked:
		// asked first, the lock would have said "running elsewhere" for a run no tab holds.
		const items = await listUnfinished(
			watched,
			[plan('r1', modelDir, { status: 'running' })],
			async () => {
				events.push('locks');
				return [];
			}
		);
		expect(events.at(-1)).toBe('locks');
		expect(events.filter((e) => e === 'records').length).toBeGreaterThan(0);
		expect(items.map((i) => i.state)).toEqual(['interrupted']);
	});
});

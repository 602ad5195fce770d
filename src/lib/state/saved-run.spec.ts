import { describe, expect, it } from 'vitest';
import { runStages } from '$lib/core/engine/run-stages';
import { DEFAULT_PROMPT_PACK } from '$lib/core/prompts';
import { DEFAULT_SETTINGS } from '$lib/core/records';
import { createSimulatedClient } from '$lib/core/simulated';
import { MemoryStore } from '$lib/core/store/memory-store';
import { makeDataset } from '../../../tests/fixtures/engine/cases';
import { checkSavedRun, type ManifestRequest } from './saved-run';

const MODELS = { evaluated: 'simulated', user: 'u', judge: 'j' };
const ENDPOINTS = { evaluated: 'sim://', user: 'sim://', judge: 'sim://' };

const request = (over: Partial<ManifestRequest> = {}): ManifestRequest => ({
	dataset: makeDataset(4),
	runId: 'r1',
	limit: 3,
	models: MODELS,
	endpoints: ENDPOINTS,
	settings: DEFAULT_SETTINGS,
	concurrency: 2,
	pack: DEFAULT_PROMPT_PACK,
	simulated: true,
	...over
});

/** A store holding run r1 as `runStages` wrote it: gen on the first 3 of 4 cases. */
async function saved() {
	const store = new MemoryStore();
	const r = request();
	await runStages({
		dataset: r.dataset,
		limit: 3,
		stages: ['gen'],
		client: createSimulatedClient(),
		store,
		runId: 'r1',
		models: MODELS,
		endpoints: ENDPOINTS,
		settings: DEFAULT_SETTINGS,
		concurrency: 2
	});
	return store;
}

describe('checkSavedRun', () => {
	it('finds nothing under a free run id', async () => {
		const result = await checkSavedRun(new MemoryStore(), request(), ['gen']);
		expect(result.kind).toBe('new');
	});

	it('builds the manifest the engine writes: the same inputs resume, with their saved cases', async () => {
		const result = await checkSavedRun(await saved(), request({ concurrency: 8 }), ['gen', 'dcg']);
		expect(result).toMatchObject({ kind: 'resume', saved: { gen: 3, dcg: 0 } });
	});

	it.each([
		[
			'another dataset',
			request({ dataset: { ...makeDataset(4), sha256: 'c'.repeat(64) } }),
			'dataset.sha256'
		],
		['another limit', request({ limit: 2 }), 'dataset.selected_case_numbers'],
		[
			'another temperature',
			request({ settings: { ...DEFAULT_SETTINGS, temperature: 0.1 } }),
			'settings.temperature'
		],
		['another judge', request({ models: { ...MODELS, judge: 'j2' } }), 'models.judge'],
		// The code hash holds the prompts hash: other prompts are said once, not as another protocol.
		[
			'another prompt pack',
			request({ pack: { ...DEFAULT_PROMPT_PACK, name: 'mine' } }),
			'prompts_sha256'
		]
	])('names %s as a difference that refuses the resume', async (_name, req, field) => {
		const plans = [
			{
				runId: 'r1',
				modelDir: 'x',
				stages: ['gen' as const],
				concurrency: 2,
				datasetName: 'cases.json',
				status: 'failed' as const,
				error: 'boom',
				updatedAt: '2025-01-01T00:00:00.000Z'
			}
		];
		const result = await checkSavedRun(await saved(), req, ['gen'], plans);
		expect(result.kind).toBe('refused');
		if (result.kind !== 'refused') return;
		expect(result.differences.map((d) => d.field)).toEqual([field]);
		// The plan is another model's folder: no file name is claimed for this run.
		expect(result.datasetName).toBeNull();
	});
});

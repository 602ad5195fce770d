import 'fake-indexeddb/auto';
import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadDataset } from '$lib/core/dataset/load';
import { defaultModelSettings } from './model-settings';
import { RunState } from './run.svelte';
import { settingsState } from './settings.svelte';

// The settings are one object for the whole app: each test starts from the defaults and leaves
// them so, whatever order the tests run in.
beforeEach(() => {
	settingsState.value = defaultModelSettings();
});
afterEach(() => {
	settingsState.value = defaultModelSettings();
});

describe('RunState.suggestRunId', () => {
	it('the automatic suggestion keeps a run id typed while it was being worked out', async () => {
		// With an evaluated model the suggestion awaits its folder name, the window a user types in.
		settingsState.value.mode = 'simulated';
		const r = new RunState();
		r.runId = '';
		const suggesting = r.suggestRunId({ onlyIfEmpty: true });
		r.runId = 'typed-by-user';
		await suggesting;
		expect(r.runId).toBe('typed-by-user');
	});

	it('the automatic suggestion leaves a field the user cleared (a fill in progress) alone', async () => {
		settingsState.value.mode = 'simulated';
		const r = new RunState();
		r.runId = '';
		const suggesting = r.suggestRunId({ onlyIfEmpty: true });
		r.runIdEdited = true;
		await suggesting;
		expect(r.runId).toBe('');
	});

	it('the automatic suggestion does not write while the page says the field is in use', async () => {
		const r = new RunState();
		r.runId = '';
		await r.suggestRunId({ onlyIfEmpty: true, onlyIf: () => false });
		expect(r.runId).toBe('');
		await r.suggestRunId({ onlyIfEmpty: true, onlyIf: () => true });
		expect(r.runId).toBe('run1');
	});

	it('the Suggest button replaces the run id with the first free runN', async () => {
		const r = new RunState();
		r.runId = 'something';
		await r.suggestRunId();
		expect(r.runId).toBe('run1');
	});
});

describe('RunState.start', () => {
	it('shows the new run as starting on the click, never the last run’s failure meanwhile', async () => {
		const sample = await loadDataset(
			new Uint8Array(
				readFileSync(new URL('../../../static/sample/lexpilot-sample.json', import.meta.url))
			)
		);
		if (!sample.ok) throw new Error('the bundled sample does not validate');
		const { datasetState } = await import('./dataset.svelte');
		const { idleSnapshot } = await import('./run-controller');
		settingsState.value.mode = 'simulated';
		datasetState.dataset = sample.dataset;
		try {
			const r = new RunState();
			r.runId = 'shown-at-once';
			r.limitText = '1';
			r.stages = {
				...r.stages,
				dcg: false,
				'ljp-direct': false,
				'ljp-gold': false,
				'ljp-interaction': false
			};
			const failed = { kind: 'usage' as const, message: 'the last run failed' };
			r.snapshot = { ...idleSnapshot(), status: 'failed', error: failed };

			const started = r.start();
			expect(r.snapshot.status).toBe('starting');
			expect(r.snapshot.error).toBeNull();
			await started;
			expect(r.pageError).toBeNull();
			expect(r.snapshot.status).toBe('done');
			expect(r.snapshot.run?.runId).toBe('shown-at-once');
		} finally {
			datasetState.dataset = null;
		}
	});
});

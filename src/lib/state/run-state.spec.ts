import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Dataset } from '$lib/core/dataset/load';
import { makeDataset } from '../../../tests/fixtures/engine/cases';
import { datasetState } from './dataset.svelte';
import { defaultModelSettings } from './model-settings';
import { idleSnapshot } from '$lib/adapters/workers/run-controller';
import { loadPlans } from '$lib/core/control/run-plans';
import { RunState } from './run.svelte';
import { settingsState } from './settings.svelte';

// The settings are one object for the whole app: each test starts from the defaults and leaves
// them so, whatever order the tests run in.
beforeEach(() => {
	settingsState.value = defaultModelSettings();
});
afterEach(() => {
	settingsState.value = defaultModelSettings();
	useDataset(null);
	delete (globalThis as { localStorage?: Storage }).localStorage;
});

/** Puts a dataset in use, as a load of a small file does: its head and every case. */
function useDataset(dataset: Dataset | null): void {
	datasetState.dataset = dataset;
	if (!dataset) datasetState.head = null;
	else {
		const { cases, ...head } = dataset;
		datasetState.head = { ...head, caseCount: cases.length };
	}
}

/** A `localStorage` of this test's own, where run plans are remembered. */
function useLocalStorage(): Storage {
	const items = new Map<string, string>();
	const storage = {
		getItem: (k: string) => items.get(k) ?? null,
		setItem: (k: string, v: string) => void items.set(k, v),
		removeItem: (k: string) => void items.delete(k)
	} as Storage;
	(globalThis as { localStorage?: Storage }).localStorage = storage;
	return storage;
}

/** A RunState whose form runs gen on the first `limit` cases under `runId`. */
function formFor(runId: string, limit: number): RunState {
	const r = new RunState();
	r.runId = runId;
	r.limitText = String(limit);
	r.stages = {
		...r.stages,
		dcg: false,
		'ljp-direct': false,
		'ljp-gold': false,
		'ljp-interaction': false
	};
	return r;
}

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
		settingsState.value.mode = 'simulated';
		useDataset(makeDataset(2) as Dataset);
		try {
			const r = formFor('shown-at-once', 1);
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
			useDataset(null);
		}
	});
});

/** Simulated models, fresh local storage and 3 cases, after a first run of `runId` on `limit`. */
async function afterFirstRun(runId: string, limit: number) {
	settingsState.value.mode = 'simulated';
	const storage = useLocalStorage();
	useDataset(makeDataset(3) as Dataset);
	const first = formFor(runId, limit);
	await first.start();
	return { first, storage };
}

describe('RunState and what the form’s run id holds', () => {
	it('says a run id of the same inputs resumes, and leaves its saved cases out of the estimate', async () => {
		const { first } = await afterFirstRun('same-inputs', 2);
		expect(first.snapshot.status, first.snapshot.error?.message).toBe('done');

		const r = formFor('same-inputs', 2);
		await r.checkSavedRun();
		expect(r.savedRun).toMatchObject({ kind: 'resume', saved: { gen: 2 } });
		expect(r.estimate.total).toEqual({ min: 0, max: 0 });
		expect(r.problems).toEqual([]);
	});

	it('names what differs before Start, counts every case, refuses Start and keeps the run’s plan', async () => {
		const { first, storage } = await afterFirstRun('other-inputs', 2);
		expect(first.snapshot.status, first.snapshot.error?.message).toBe('done');
		const plans = loadPlans(storage);

		// The same run id on another dataset (other bytes, so another SHA-256).
		useDataset({ ...makeDataset(3), sha256: 'e'.repeat(64) } as Dataset);
		const r = formFor('other-inputs', 2);
		await r.checkSavedRun();
		expect(r.savedRun?.kind).toBe('refused');
		const refused = r.savedRun as Extract<typeof r.savedRun, { kind: 'refused' }>;
		expect(refused.differences.map((d) => d.field)).toEqual(['dataset.sha256']);
		// Nothing of that run is counted: the estimate is every selected case.
		expect(r.estimate.stages).toEqual([expect.objectContaining({ stage: 'gen', cases: 2 })]);
		expect(r.canStart).toBe(false);
		expect(r.problems.join('\n')).toContain('Run id other-inputs holds a run with other inputs');

		// Clicked anyway (before the form's check came back): nothing runs, nothing is written.
		r.snapshot = idleSnapshot();
		await r.start();
		expect(r.snapshot.status).toBe('idle');
		expect(r.pageError).toBeNull();
		expect(loadPlans(storage)).toEqual(plans);
	});

	it('checks the form as it is now: an answer for an earlier run id is never shown', async () => {
		await afterFirstRun('shown-now', 1);

		const r = formFor('shown-now', 1);
		await r.checkSavedRun();
		expect(r.savedRun?.kind).toBe('resume');
		r.runId = 'shown-now-2';
		expect(r.savedRun).toBeNull();
		await r.checkSavedRun();
		expect(r.savedRun?.kind).toBe('new');
	});
});

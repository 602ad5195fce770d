import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeDataset } from '../../../tests/fixtures/engine/cases';
import { writeRuns } from '../../../tests/fixtures/bundles/runs';
import { closeTestStores, dropRecord, openTestStore, rawDbOf } from '../../../tests/support/idb';
import { NO_CHOICE } from '../../../tests/support/results-query';
import type { IdbStore } from '$lib/adapters/idb-store';
import { idbLayoutSource, readRunsFiles } from '$lib/adapters/idb-layout-source';
import { bundleView } from '$lib/adapters/bundle-view';
import { readZipBundle, zipBundle } from '$lib/adapters/zip-bundle';
import { runKey } from '$lib/core/names';
import { formatDate } from '$lib/core/report/format';
import { computeReport } from '$lib/core/results';
import { baseLocale, overwriteGetLocale } from '$lib/paraglide/runtime';
import { DEFAULT_FIGURE_CHOICE } from '$lib/view/result-figures';
import { RpcClient } from '$lib/adapters/worker-rpc';
import { LeaderboardChoices } from './leaderboard-choices.svelte';
import { LeaderboardState } from './leaderboard.svelte';
import { ResultsState } from './results.svelte';
import { StatsClient } from './stats-client';

const dataset = makeDataset(3);
async function setup(): Promise<{ store: IdbStore; state: ResultsState }> {
	const store = await openTestStore();
	const state = new ResultsState({ openStore: async () => store });
	return { store, state };
}

afterEach(closeTestStores);

describe('ResultsState', () => {
	it('shows every run at first, and averages once comparable runs exist', async () => {
		const { store, state } = await setup();
		await writeRuns(store, dataset, [{ runId: 'run1' }, { runId: 'run2' }]);
		await state.load();
		expect(state.status).toBe('ready');
		expect(state.selected).toEqual(state.runs.map((r) => runKey(r.run)));
		expect(state.report?.runs.map((r) => r.run_id)).toEqual(['run1', 'run2']);
		expect(state.mode).toBe('groups');
	});

	it('keeps a hidden run hidden on refresh, and shows a run that appeared since', async () => {
		const { store, state } = await setup();
		await writeRuns(store, dataset, [{ runId: 'run1' }, { runId: 'run2' }]);
		await state.load();
		const [first] = state.selected;
		state.toggle(first, false);
		await state.load();
		expect(state.report?.runs.map((r) => r.run_id)).toEqual(['run2']);
		await writeRuns(store, dataset, [{ runId: 'run3' }]);
		await state.load();
		expect(state.selected).not.toContain(first);
		expect(state.report?.runs.map((r) => r.run_id)).toEqual(['run2', 'run3']);
	});

	it('hides and shows all runs of a model at once', async () => {
		const { store, state } = await setup();
		await writeRuns(store, dataset, [
			{ runId: 'run1' },
			{ runId: 'run1', model: 'sim-model-b' },
			{ runId: 'run2', model: 'sim-model-b' }
		]);
		await state.load();
		state.setModel('sim-model-b', false);
		await state.load();
		expect(state.report?.runs.map((r) => r.model)).toEqual(['sim-model-a']);
		state.setModel('sim-model-b', true);
		await state.load();
		expect(state.report?.runs).toHaveLength(3);
	});

	it('scores a run still being written as partial, and says it is in progress', async () => {
		const { store, state } = await setup();
		await writeRuns(store, dataset, [{ runId: 'run1', stages: ['gen', 'dcg'] }]);
		const [run] = await store.listRuns();
		await dropRecord(store, run, 'DCG_results', 2);
		const release = await store.lock(run);
		await state.load();
		expect(state.inProgress).toBe(true);
		expect(state.incomplete).toEqual([]);
		expect(state.report?.runs[0].metrics.dcg?.n).toBe(2);
		expect(state.report?.runs[0].partial).toBe(true);
		await release();
	});

	it('calls a partial run that nothing writes incomplete, never in progress', async () => {
		const { store, state } = await setup();
		await writeRuns(store, dataset, [{ runId: 'run1', stages: ['gen', 'dcg'] }]);
		const [run] = await store.listRuns();
		for (let i = 0; i < 3; i++) await dropRecord(store, run, 'DCG_results', 0);
		await state.load();
		expect(state.writing).toEqual([]);
		expect(state.inProgress).toBe(false);
		expect(state.incomplete.map((r) => runKey(r.run))).toEqual([runKey(run)]);
	});

	it('reports a malformed stored record with its file and line', async () => {
		const { store, state } = await setup();
		await writeRuns(store, dataset, [{ runId: 'run1', stages: ['dcg'] }]);
		const raw = await rawDbOf(store);
		const row = (await raw.getAll('records')).find((r) => r.file === 'DCG_results')!;
		await raw.put('records', { ...row, json: '{"case_number": 1' });
		await state.load();
		expect(state.status).toBe('error');
		expect(state.error).toMatch(
			/browser storage\/eval_results\/run1\/sim-model-a-[0-9a-f]{8}\/DCG_results\.jsonl, line 1: not valid JSON/
		);
	});

	it('shows nothing, without error, when every run is hidden', async () => {
		const { store, state } = await setup();
		await writeRuns(store, dataset, [{ runId: 'run1', stages: ['dcg'] }]);
		await state.load();
		state.selectNone();
		await state.load();
		expect(state.report).toBeNull();
		expect(state.status).toBe('ready');
	});

	it('fills in the bootstrap intervals the CLI computes, bit for bit, after the report', async () => {
		const { store, state } = await setup();
		const big = makeDataset(12);
		await writeRuns(store, big, [{ runId: 'run1' }, { runId: 'run2', model: 'sim-model-b' }]);
		await state.load();
		expect(state.intervals).toBe('ready');
		const cli = await computeReport(
			idbLayoutSource(store, { runs: state.runs.map((r) => r.run) }),
			{
				partial: true,
				bootstrap: {}
			}
		);
		expect(state.report?.bootstrap).toEqual(cli.bootstrap);
		expect(state.report?.runs.map((r) => r.ci95)).toEqual(cli.runs.map((r) => r.ci95));
		expect(state.report?.runs.map((r) => r.by_class)).toEqual(cli.runs.map((r) => r.by_class));
		expect(state.report?.runs[0].ci95?.lca?.macro_f1).not.toBeNull();
	});

	it('compares two runs on the same cases, and refuses runs whose cases differ', async () => {
		const { store, state } = await setup();
		const big = makeDataset(12);
		await writeRuns(store, big, [
			{ runId: 'run1' },
			{ runId: 'run2', model: 'sim-model-b' },
			{ runId: 'run3', limit: 11 }
		]);
		await state.load();
		const [k1, k2, k3] = state.runs.map((r) => runKey(r.run));
		await state.compare(k1, k2);
		expect(state.comparison?.status).toBe('ready');
		expect(state.comparison?.report?.n_cases).toBe(12);
		expect(state.comparison?.report?.b.model).toBe('sim-model-b');
		await state.compare(k1, k3);
		expect(state.comparison?.status).toBe('refused');
		expect(state.comparison?.error).toMatch(/cannot be compared.*only in/);
		// The refusal is worded at each read: a language switch rewords it, nothing recomputed.
		overwriteGetLocale(() => 'zh-CN');
		try {
			expect(state.comparison?.error).toMatch(/^这两次运行无法比较：它们选定的案例不同/);
		} finally {
			overwriteGetLocale(() => baseLocale);
		}
	});

	it('keeps in its query only what the user chose, once the runs are read', async () => {
		const { store, state } = await setup();
		await writeRuns(store, dataset, [{ runId: 'run1' }, { runId: 'run2' }]);
		expect(state.query).toBeNull();
		await state.load();
		expect(state.query).toEqual(NO_CHOICE);
		const [k1] = state.runs.map((r) => runKey(r.run));
		state.toggle(k1, false);
		state.setMode('runs');
		state.choice.ljpSetup = 'gold';
		const [, k2] = state.runs.map((r) => runKey(r.run));
		expect(state.query).toEqual({
			...NO_CHOICE,
			runs: [k2],
			mode: 'runs',
			choice: { ...DEFAULT_FIGURE_CHOICE, ljpSetup: 'gold' }
		});
	});

	it('shows exactly the runs a link names, and says which are not stored here', async () => {
		const { store, state } = await setup();
		await writeRuns(store, dataset, [{ runId: 'run1' }, { runId: 'run2' }, { runId: 'run3' }]);
		const keys = (await store.listRuns()).map(runKey);
		state.restore({
			...NO_CHOICE,
			runs: [keys[2], 'gone/m-1', keys[0]],
			mode: 'runs',
			mixSimulated: true,
			choice: { ...DEFAULT_FIGURE_CHOICE, lcaClass: 'f1_c' }
		});
		const loading = state.load();
		// The link is not written over before its runs are shown.
		expect(state.query).toBeNull();
		await loading;
		expect(state.selected).toEqual([keys[2], keys[0]]);
		expect(state.report?.runs.map((r) => r.run_id)).toEqual(['run1', 'run3']);
		expect(state.mode).toBe('runs');
		expect(state.missingFromLink).toEqual(['gone/m-1']);
		expect(state.figures?.lcaClass.title).toBe('LCA F1_C by cause class');
		expect(state.query?.runs).toEqual([keys[2], keys[0]]);
		// The other stored run counts as hidden: a refresh keeps it so.
		await state.load();
		expect(state.selected).toEqual([keys[2], keys[0]]);
		state.toggle(keys[1], true);
		expect(state.missingFromLink).toEqual([]);
	});

	it("reopens a link's comparison and panel picks, and keeps them in its query", async () => {
		const { store, state } = await setup();
		await writeRuns(store, dataset, [{ runId: 'run1' }, { runId: 'run2' }]);
		const [k1, k2] = (await store.listRuns()).map(runKey);
		const picks = { compareClass: 'labour', matrix: k2, matrixClass: 'debt' };
		state.restore({ ...NO_CHOICE, ...picks, compare: [k2, k1] });
		await state.load();
		await vi.waitFor(() => expect(state.comparison?.status).toBe('ready'));
		expect([state.comparison?.a, state.comparison?.b]).toEqual([k2, k1]);
		expect(state.query).toMatchObject({ ...picks, compare: [k2, k1], bundle: null });
		state.clearComparison();
		expect(state.query?.compare).toBeNull();
	});

	it('shows a bundle from memory without opening the database, and storage again after', async () => {
		const store = await openTestStore();
		await writeRuns(store, dataset, [{ runId: 'run1' }, { runId: 'run2' }]);
		const runs = await store.listRuns();
		const zip = await zipBundle(await readRunsFiles(store, runs));
		const view = bundleView(await readZipBundle(zip, 'x.zip'), 'https://h/x.zip', zip.length);
		let opened = 0;
		const state = new ResultsState({
			openStore: async () => {
				opened++;
				return store;
			}
		});
		await state.showBundle(view);
		expect(opened).toBe(0);
		expect(state.report?.runs.map((r) => r.run_id)).toEqual(['run1', 'run2']);
		expect(state.writing).toEqual([]);
		expect(state.query?.bundle).toBe('https://h/x.zip');
		const fromStorage = await computeReport(idbLayoutSource(store), { partial: true });
		expect(state.report?.runs.map((r) => [r.metrics, r.counts, r.calls])).toEqual(
			fromStorage.runs.map((r) => [r.metrics, r.counts, r.calls])
		);
		expect(fromStorage.runs[0].calls).toBeTruthy();
		state.toggle(runKey(runs[0]), false);
		await vi.waitFor(() => expect(state.report?.runs.map((r) => r.run_id)).toEqual(['run2']));
		expect(opened).toBe(0);
		// After an import: storage again, the runs shown kept.
		await state.showBundle(null, true);
		expect(opened).toBeGreaterThan(0);
		expect(state.selected).toEqual([runKey(runs[1])]);
		expect(state.query?.bundle).toBeNull();
	});

	it('asks the stats worker once for the intervals and the leaderboard together', async () => {
		const store = await openTestStore();
		const stats = new StatsClient();
		const board = new LeaderboardState(stats, new LeaderboardChoices());
		const state = new ResultsState({ openStore: async () => store, stats, leaderboard: board });
		await writeRuns(store, dataset, [{ runId: 'run1' }, { runId: 'run2', model: 'sim-model-b' }]);
		const calls = vi.spyOn(RpcClient.prototype, 'call');
		try {
			await state.load();
			// What the leaderboard panel does when it shows: the runs are ranked already.
			await board.compute(state.loadedRuns);
			await vi.waitFor(() => expect(board.status).toBe('ready'));
			expect(state.intervals).toBe('ready');
			expect(board.leaderboard?.boards.flatMap((b) => b.overall.rows.map((r) => r.model))).toEqual(
				expect.arrayContaining(['sim-model-a', 'sim-model-b'])
			);
			expect(calls.mock.calls.map(([kind]) => kind)).toEqual(['results']);
		} finally {
			calls.mockRestore();
		}
	});

	it('offers the HTML report, and every download, through one function', async () => {
		const saved: { name: string; file: Blob }[] = [];
		const store = await openTestStore();
		const state = new ResultsState({
			openStore: async () => store,
			save: (file, name) => saved.push({ file, name })
		});
		await writeRuns(store, dataset, [{ runId: 'run1' }]);
		await state.load();
		await state.downloadReport(Date.parse('2025-05-01T00:00:00.000Z'));
		state.download(new Blob(['<svg/>']), 'lexpilot-lca-overall.svg');
		expect(saved.map((s) => s.name)).toEqual(['lexpilot-report.html', 'lexpilot-lca-overall.svg']);
		expect(saved[0].file.type).toBe('text/html;charset=utf-8');
		const html = await saved[0].file.text();
		// When it was made, in the report's language with its time zone (not the raw ISO text).
		expect(html).toContain(
			formatDate('2025-05-01T00:00:00.000Z', 'en', { date: 'medium', time: 'long' })
		);
		expect(html).not.toContain('2025-05-01T00:00:00.000Z');
		// Seven figures and the leaderboard's, ranked in the same worker call as the intervals.
		expect(html.match(/<figure/g)).toHaveLength(8);
	});
});

import 'fake-indexeddb/auto';
import { overwriteGetLocale } from '$lib/paraglide/runtime';
import { describe, expect, it, vi } from 'vitest';
import type { loadDataset } from '$lib/core/dataset/load';
import { coreTexts } from './core-text.svelte';
import { DatasetState } from './dataset.svelte';
import { openSavedDatasetStore, type SavedDatasetStore } from './saved-dataset';
import { inThreadLoader } from '$lib/adapters/workers/dataset-loader';
import { LOAD_WORDS } from './worker-words';

const encoder = new TextEncoder();
const bytesOf = (value: unknown) => encoder.encode(JSON.stringify(value));

let dbCounter = 0;
/** A fresh IndexedDB store per test (fake-indexeddb), so tests never share a remembered file. */
function freshStore(): SavedDatasetStore {
	const store = openSavedDatasetStore(`lexpilot-datasets-test-${++dbCounter}`);
	if (!store) throw new Error('fake-indexeddb did not install indexedDB');
	return store;
}

function history(first: string) {
	return [
		{ role: 'user', content: first },
		{ role: 'assistant', content: '请问借款时是否约定了利息？' },
		{ role: 'user', content: '约定了年利率百分之六。' }
	];
}

function validCase(
	case_number: string | number,
	cause = '民间借贷纠纷',
	fields = ['complete_consultation', 'underspecified_consultation']
) {
	return {
		case_number,
		cause_of_action: cause,
		plaintiff_type: '自然人',
		focal_point: ['借款事实是否成立'],
		key_details: { 借款金额: '五万元', 借条: '有' },
		result_dict: { 判令被告返还借款五万元: '支持', 判令被告支付利息: '部分支持' },
		[fields[0]]: history('朋友借了我五万元，写了借条，到期不还。'),
		[fields[1]]: history('朋友借钱不还怎么办？')
	};
}

describe('DatasetState', () => {
	it('opens a valid file, remembers it, and a new tab restores the same dataset', async () => {
		const store = freshStore();
		const first = new DatasetState({ store });
		const bytes = bytesOf([validCase('A-1'), validCase(2, '离婚纠纷')]);
		await first.open(bytes, { fileName: 'bench.json' });

		expect(first.status).toBe('ready');
		expect(first.dataset?.cases.map((c) => c.case_number)).toEqual(['A-1', '2']);
		expect(first.persistence).toBe('saved');

		const second = new DatasetState({ store });
		await second.restore();
		expect(second.status).toBe('ready');
		expect(second.origin).toBe('restored');
		expect(second.fileName).toBe('bench.json');
		expect(second.sha256).toBe(first.sha256);
		expect(second.dataset?.cases).toEqual(first.dataset?.cases);
	});

	it('restores a file remembered by an earlier version as bytes, not a Blob', async () => {
		const { openDB } = await import('idb');
		const name = `lexpilot-datasets-test-${++dbCounter}`;
		const store = openSavedDatasetStore(name)!;
		await store.clear(); // creates the database with its store
		const db = await openDB(name, 1);
		const bytes = bytesOf([validCase('OLD-1')]);
		await db.put('last', { bytes, fileName: 'old.json', isSample: false, savedAt: 'x' }, 'current');
		db.close();
		const state = new DatasetState({ store });
		await state.restore();
		expect(state.fileName).toBe('old.json');
		expect(state.dataset?.cases[0].case_number).toBe('OLD-1');
	});

	it('lists every problem of an invalid file and keeps no dataset', async () => {
		const broken = validCase('B-1');
		broken.result_dict = { 判令被告返还借款: '全部支持' } as unknown as typeof broken.result_dict;
		const state = new DatasetState({ store: null });
		await state.open(bytesOf([broken, { ...validCase('B-2'), cause_of_action: '' }]), {
			fileName: 'broken.json'
		});

		expect(state.status).toBe('invalid');
		expect(state.dataset).toBeNull();
		expect(state.refused?.keptDataset).toBe(false);
		expect(state.fileName).toBe('broken.json');
		expect(state.refused?.problems.items.map((p) => [p.caseIndex, p.caseNumber])).toEqual(
			expect.arrayContaining([
				[0, 'B-1'],
				[1, 'B-2']
			])
		);
		expect(state.persistence).toBe('unavailable');
		expect(state.refused?.problems.total).toBe(state.refused?.problems.items.length);
	});

	it('counts every problem of a file with thousands, listing the first and a line for the rest', async () => {
		const state = new DatasetState({ store: null });
		await state.open(encoder.encode(`[${Array(1000).fill('{}').join(',')}]`), {
			fileName: 'empties.json'
		});
		expect(state.status).toBe('invalid');
		// The loader keeps its first 500; the page gets those and the rest counted by kind.
		const problems = state.refused!.problems;
		expect(problems.total).toBeGreaterThan(6000);
		expect(problems.items).toHaveLength(500);
		expect(problems.omitted.reduce((n, k) => n + k.count, 0)).toBe(problems.total - 500);
		expect(problems.omitted.map((k) => k.kind)).toContain('case_number');
	});

	it('asks for a mapping when history fields are ambiguous, then validates with the choice', async () => {
		const store = freshStore();
		const state = new DatasetState({ store });
		const fields = ['history_a', 'history_b'];
		await state.open(bytesOf([validCase('M-1', '民间借贷纠纷', fields)]), { fileName: 'odd.json' });

		expect(state.status).toBe('invalid');
		expect(state.refused?.mapping?.candidates).toEqual(expect.arrayContaining(fields));

		await state.mapHistoryFields({ complete: 'history_a', underspecified: 'history_b' });
		expect(state.status).toBe('ready');
		expect(state.dataset?.historyFields).toEqual({
			complete: 'history_a',
			underspecified: 'history_b'
		});
		expect(state.dataset?.cases[0].underspecified[0].content).toBe('朋友借钱不还怎么办？');

		// The chosen mapping is remembered with the file.
		const restored = new DatasetState({ store });
		await restored.restore();
		expect(restored.status).toBe('ready');
		expect(restored.dataset?.historyFields.complete).toBe('history_a');
	});

	it('applies a category map file, reports a bad one without dropping the current map', async () => {
		const state = new DatasetState({ store: freshStore() });
		await state.open(bytesOf([validCase('C-1', '某种新纠纷')]), { fileName: 'c.json' });
		expect(state.dataset?.summary.classes).toEqual({ 未分类: 1 });
		expect(state.warnings.total).toBeGreaterThan(0);

		await state.setCategoryFile(encoder.encode('{"某种新纠纷": "合同纠纷"}'), 'map.json');
		expect(state.categoryError).toBeNull();
		expect(state.dataset?.summary.classes).toEqual({ 合同纠纷: 1 });
		expect(state.warnings.total).toBe(0);

		await state.setCategoryFile(encoder.encode('[1, 2]'), 'bad.json');
		expect(state.categoryError).toMatch(/^bad\.json: /);
		// Said in the interface language, following a switch (which loads the core's texts).
		await coreTexts.load();
		overwriteGetLocale(() => 'zh-CN');
		expect(state.categoryError).toBe(
			'bad.json: 类别映射：应为“案由 → 类别”的 JSON 对象，例如 {"民间借贷纠纷": "合同纠纷"}'
		);
		overwriteGetLocale(() => 'en');
		expect(state.categoryFile?.name).toBe('map.json');
		expect(state.dataset?.summary.classes).toEqual({ 合同纠纷: 1 });

		await state.clearCategoryFile();
		expect(state.dataset?.summary.classes).toEqual({ 未分类: 1 });
	});

	it('keeps the sample flag across a reload, and forget clears memory and storage', async () => {
		const store = freshStore();
		const bytes = bytesOf([validCase('S-1')]);
		const state = new DatasetState({
			store,
			fetch: async () => new Response(bytes as Uint8Array<ArrayBuffer>)
		});
		await state.loadSample('/base/sample/lexpilot-sample.json');
		expect(state.isSample).toBe(true);
		expect(state.fileName).toBe('lexpilot-sample.json');

		const restored = new DatasetState({ store });
		await restored.restore();
		expect(restored.isSample).toBe(true);

		await restored.forget();
		expect(restored.status).toBe('empty');
		expect(restored.dataset).toBeNull();
		expect(await store.load()).toBeNull();
	});

	it('says so when the sample cannot be fetched', async () => {
		const state = new DatasetState({
			store: null,
			fetch: async () => new Response('missing', { status: 404 })
		});
		await state.loadSample('/sample/lexpilot-sample.json');
		expect(state.status).toBe('error');
		expect(state.refused?.error).toContain('HTTP 404');
	});

	it('validates files one at a time in the order opened, so the one opened last is shown', async () => {
		const { loadDataset: realLoad } = await import('$lib/core/dataset/load');
		let releaseSlow: () => void = () => {};
		const slowGate = new Promise<void>((ok) => (releaseSlow = ok));
		const order: string[] = [];
		const load: typeof loadDataset = async (bytes, options) => {
			order.push(`start ${options?.fileName}`);
			if (options?.fileName === 'slow.json') await slowGate;
			order.push(`end ${options?.fileName}`);
			return realLoad(bytes, options);
		};
		const state = new DatasetState({ store: null, load });
		const slow = state.open(bytesOf([validCase('SLOW')]), { fileName: 'slow.json' });
		const fast = state.open(bytesOf([validCase('FAST')]), { fileName: 'fast.json' });
		await Promise.resolve();
		expect(state.loading?.fileName).toBe('slow.json');
		releaseSlow();
		await Promise.all([slow, fast]);
		expect(order).toEqual(['start slow.json', 'end slow.json', 'start fast.json', 'end fast.json']);
		expect(state.dataset?.cases[0].case_number).toBe('FAST');
		expect(state.loading).toBeNull();
	});

	it('keeps the valid dataset in use (and remembered) when the next file opened is invalid', async () => {
		const store = freshStore();
		const state = new DatasetState({ store });
		await state.open(bytesOf([validCase('GOOD-1'), validCase('GOOD-2')]), {
			fileName: 'good.json'
		});
		const good = state.dataset;
		await state.open(encoder.encode('[{"case_number": '), { fileName: 'broken.json' });

		expect(state.status).toBe('ready');
		expect(state.dataset).toBe(good);
		expect(state.fileName).toBe('good.json');
		expect(state.refused?.fileName).toBe('broken.json');
		expect(state.refused?.keptDataset).toBe(true);
		expect(state.refused?.problems.items[0].text).toMatch(/^broken\.json, line 1/);

		const reloaded = new DatasetState({ store });
		await reloaded.restore();
		expect(reloaded.fileName).toBe('good.json');
		expect(reloaded.dataset?.cases.map((c) => c.case_number)).toEqual(['GOOD-1', 'GOOD-2']);

		// A category map applies to the dataset in use, which stays usable.
		await state.setCategoryFile(encoder.encode('{"民间借贷纠纷": "借贷"}'), 'map.json');
		expect(state.dataset?.summary.classes).toEqual({ 借贷: 2 });
		expect(state.dataset?.cases.map((c) => c.case_number)).toEqual(['GOOD-1', 'GOOD-2']);
	});

	it('maps the history fields of a refused file while another dataset stays in use', async () => {
		const state = new DatasetState({ store: freshStore() });
		await state.open(bytesOf([validCase('FIRST')]), { fileName: 'first.json' });
		const fields = ['history_a', 'history_b'];
		await state.open(bytesOf([validCase('M-1', '民间借贷纠纷', fields)]), { fileName: 'odd.json' });
		expect(state.status).toBe('ready');
		expect(state.dataset?.cases[0].case_number).toBe('FIRST');
		expect(state.refused?.mapping).not.toBeNull();

		await state.mapHistoryFields({ complete: 'history_a', underspecified: 'history_b' });
		expect(state.refused).toBeNull();
		expect(state.fileName).toBe('odd.json');
		expect(state.dataset?.cases[0].case_number).toBe('M-1');
	});

	it('keeps the dataset in use when the loader dies, and says to open the file again', async () => {
		const inline = inThreadLoader(LOAD_WORDS);
		let dies = false;
		const state = new DatasetState({
			store: null,
			loader: {
				...inline,
				load: (bytes, options, onProgress) =>
					dies
						? Promise.resolve({ kind: 'failed', bytes: null, message: 'worker stopped' })
						: inline.load(bytes, options, onProgress)
			}
		});
		await state.open(bytesOf([validCase('KEEP')]), { fileName: 'keep.json' });
		dies = true;
		await state.open(bytesOf([validCase('LOST')]), { fileName: 'lost.json' });
		expect(state.dataset?.cases[0].case_number).toBe('KEEP');
		expect(state.refused?.error).toBe('lost.json could not be validated: worker stopped');
	});

	it('keeps the cases of a large dataset in the loader until asked, and lists them from there', async () => {
		const inline = inThreadLoader(LOAD_WORDS, { eagerCases: 2 });
		const released: number[] = [];
		const state = new DatasetState({
			store: null,
			loader: {
				...inline,
				release(handle) {
					released.push(handle);
					inline.release(handle);
				}
			}
		});
		await state.open(bytesOf([validCase('A-1'), validCase('B-2'), validCase('A-3')]), {
			fileName: 'big.json'
		});
		expect(state.status).toBe('ready');
		expect(state.head?.caseCount).toBe(3);
		expect(state.dataset).toBeNull();
		const page = await state.queryCases({ text: 'a-', limit: 1, selected: 'A-3' });
		expect(page).toEqual({
			ok: true,
			page: expect.objectContaining({
				listed: 2,
				current: expect.objectContaining({ case_number: 'A-3' })
			})
		});
		if (page.ok) expect(page.page.rows.map((c) => c.case_number)).toEqual(['A-1']);

		expect(released).toEqual([]);
		await state.loadCases();
		expect(state.dataset?.cases.map((c) => c.case_number)).toEqual(['A-1', 'B-2', 'A-3']);
		expect(state.dataset?.sha256).toBe(state.head?.sha256);
		expect(state.casesLoading).toBeNull();
		// The cases are on the page now: the loader lets go of its copy, and the page answers.
		expect(released).toHaveLength(1);
		const query = { text: 'a-', limit: 1, selected: null };
		expect((await inline.query(released[0], query)).ok).toBe(false);
		expect((await state.queryCases(query)).ok).toBe(true);

		await state.forget();
		expect(state.head).toBeNull();
		expect(state.dataset).toBeNull();
		expect(released).toEqual([released[0], released[0]]);
	});

	it('shows progress while loading, and a forget during a load discards its outcome', async () => {
		let release: () => void = () => {};
		const gate = new Promise<void>((ok) => (release = ok));
		const { loadDataset: realLoad } = await import('$lib/core/dataset/load');
		const load: typeof loadDataset = async (bytes, options) => {
			options?.onProgress?.({ phase: 'reading', done: 5, total: bytes.length });
			await gate;
			return realLoad(bytes, options);
		};
		const state = new DatasetState({ store: freshStore(), load });
		const opening = state.open(bytesOf([validCase('P-1')]), { fileName: 'p.json' });
		// The progress crosses the loader's thread boundary: wait until it has.
		await vi.waitFor(() =>
			expect(state.loading?.progress).toEqual(
				expect.objectContaining({ phase: 'reading', done: 5 })
			)
		);
		expect(state.status).toBe('loading');
		expect(state.loading?.fileName).toBe('p.json');
		await state.forget();
		release();
		await opening;
		expect(state.status).toBe('empty');
		expect(state.dataset).toBeNull();
		expect(state.loading).toBeNull();
	});
});

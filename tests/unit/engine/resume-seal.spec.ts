/**
 * Resume seals (src/lib/core/engine/seal.ts) with the file store: a finished stage resumes
 * without reading its files, and a seal is never trusted once a file it covers changed.
 */
import { appendFile, mkdtemp, mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FsStore, sealFilePath } from '../../../src/lib/adapters/fs-store';
import { runAll } from '../../../src/lib/core/engine/run-all';
import { datasetFromFacts } from '../../../src/lib/core/engine/seal';
import { CheckpointError } from '../../../src/lib/core/errors';
import { stageFilePath } from '../../../src/lib/core/layout';
import { STAGE_FILE_NAMES } from '../../../src/lib/core/records';
import { MemoryStore } from '../../../src/lib/core/store/memory-store';
import { makeDataset } from '../../fixtures/engine/cases';
import { ALL_STAGES, ENDPOINTS, MODELS, run, runKey } from './harness';
import { ScriptedClient } from './scripted-client';
import { editKeepingSizeAndTimes } from '../../support/file-edits';

const dataset = makeDataset(4);
let root: string;

beforeEach(async () => {
	root = await mkdtemp(join(tmpdir(), 'lexpilot-seal-'));
});
afterEach(() => rm(root, { recursive: true, force: true }));

/** A store whose stage-file reads are counted. */
function counted(): { store: FsStore; reads: () => number } {
	const store = new FsStore(root);
	const heads = vi.spyOn(store, 'readHeads');
	const records = vi.spyOn(store, 'readRecords');
	return { store, reads: () => heads.mock.calls.length + records.mock.calls.length };
}

async function stageFiles(): Promise<Record<string, string>> {
	const key = await runKey();
	const out: Record<string, string> = {};
	for (const file of STAGE_FILE_NAMES) {
		out[file] = await readFile(join(root, stageFilePath(key, file)), 'utf8');
	}
	return out;
}

const pathOf = async (file: (typeof STAGE_FILE_NAMES)[number]) =>
	join(root, stageFilePath(await runKey(), file));

describe('resume seals (file store)', () => {
	it('a finished run resumes without reading a stage file or calling a model, and writes nothing to the layout', async () => {
		await run(new ScriptedClient(), new FsStore(root), { dataset });
		const files = await stageFiles();

		const again = counted();
		const client = new ScriptedClient();
		const result = await run(client, again.store, { dataset });
		expect(result.stages.map((s) => [s.stage, s.resumed, s.generated])).toEqual(
			ALL_STAGES.map((stage) => [stage, 4, 0])
		);
		expect(again.reads()).toBe(0);
		expect(client.requests).toHaveLength(0);

		// runAll (the CLI's `run`) reads the same seals.
		const all = counted();
		const allClient = new ScriptedClient();
		const report = await runAll({
			dataset,
			client: allClient,
			store: all.store,
			runId: 'r1',
			models: MODELS,
			endpoints: ENDPOINTS
		});
		expect(report.stages.every((s) => s.resumed === 4 && s.generated === 0)).toBe(true);
		expect(all.reads()).toBe(0);
		expect(allClient.requests).toHaveLength(0);
		expect(await stageFiles()).toEqual(files);
	});

	it('a run written without seals (the Python harness, older versions) is checked in full once, then sealed', async () => {
		const memory = new MemoryStore();
		await run(new ScriptedClient(), memory, { dataset });
		for (const [path, text] of memory.toFiles()) {
			const file = join(root, ...path.split('/'));
			await mkdir(dirname(file), { recursive: true });
			await writeFile(file, text);
		}
		const files = await stageFiles();
		const first = counted();
		await run(new ScriptedClient(), first.store, { dataset });
		expect(first.reads()).toBeGreaterThan(0);
		const second = counted();
		await run(new ScriptedClient(), second.store, { dataset });
		expect(second.reads()).toBe(0);
		expect(await stageFiles()).toEqual(files);
	});

	it('does not trust a seal once a record was edited by hand, even with size and times put back', async () => {
		await run(new ScriptedClient(), new FsStore(root), { dataset });
		const [saved] = (await readFile(await pathOf('interaction'), 'utf8'))
			.split('\n')
			.filter(Boolean)
			.map((line) => JSON.parse(line) as { final_response: string });
		// One Chinese character for another (same UTF-8 length) in what LJP_interaction scored.
		const text = saved.final_response;
		const at = [...text].findIndex((c) => c >= '\u4e00' && c <= '\u9fff');
		const chars = [...text];
		chars[at] = chars[at] === '甲' ? '乙' : '甲';
		await editKeepingSizeAndTimes(
			await pathOf('interaction'),
			JSON.stringify(text),
			JSON.stringify(chars.join(''))
		);
		const client = new ScriptedClient();
		const error = await run(client, new FsStore(root), {
			dataset,
			stages: ['ljp-interaction']
		}).catch((e) => e);
		expect(error).toBeInstanceOf(CheckpointError);
		expect(error.message).toMatch(/LJP_interaction\.jsonl: 1 saved record.*different inputs/s);
		expect(client.requests).toHaveLength(0);
	});

	it('does not trust a seal once a file got a torn line: the line is moved aside and its case made again', async () => {
		await run(new ScriptedClient(), new FsStore(root), { dataset, stages: ['dcg'] });
		const path = await pathOf('DCG_results');
		const whole = await readFile(path, 'utf8');
		const lines = whole.split('\n').filter(Boolean);
		// The last case's line cut off mid-write, as a crash would leave it.
		await writeFile(path, `${lines.slice(0, -1).join('\n')}\n${lines.at(-1)!.slice(0, 40)}`);
		const notes: string[] = [];
		const client = new ScriptedClient();
		const result = await run(client, new FsStore(root, { onNotice: (m) => notes.push(m) }), {
			dataset,
			stages: ['dcg']
		});
		expect(notes.join('\n')).toMatch(/DCG_results\.jsonl, line 4: .*moved to .*\.torn/);
		expect(result.stages[0]).toMatchObject({ resumed: 3, generated: 1 });
		expect(client.requests.length).toBeGreaterThan(0);
		expect(await readFile(path, 'utf8')).toBe(whole);
	});

	it('a seal covers the files a stage builds on: a changed upstream file voids it', async () => {
		await run(new ScriptedClient(), new FsStore(root), { dataset });
		// A line appended to gen's a1 file by another tool: ljp-interaction checks gen's chain first.
		await appendFile(await pathOf('a1'), '{"not": "a record"}\n');
		const probe = counted();
		const error = await run(new ScriptedClient(), probe.store, {
			dataset,
			stages: ['ljp-interaction']
		}).catch((e) => e);
		expect(error).toBeInstanceOf(CheckpointError);
		expect(error.message).toMatch(/a1\.jsonl/);
		expect(probe.reads()).toBeGreaterThan(0);
	});

	it('the seal file lives beside the manifest and goes with the run', async () => {
		const store = new FsStore(root);
		await run(new ScriptedClient(), store, { dataset, stages: ['ljp-gold'] });
		const path = join(root, sealFilePath(await runKey()));
		const seals = JSON.parse(await readFile(path, 'utf8'));
		expect(Object.keys(seals.stages)).toEqual(['ljp-gold']);
		await store.deleteRun(await runKey());
		await expect(stat(path)).rejects.toThrow(/ENOENT/);
	});
});

describe('a dataset of placeholders (the CLI start from its dataset seal)', () => {
	const facts = {
		sha256: dataset.sha256,
		caseNumbers: dataset.cases.map((c) => c.case_number_value),
		historyFields: dataset.historyFields,
		categories: dataset.categories
	};
	const loader = (loaded = dataset) => vi.fn(async () => loaded);

	it('opens a sealed run without loading the dataset, in runStages and runAll alike', async () => {
		await run(new ScriptedClient(), new FsStore(root), { dataset });
		const files = await stageFiles();
		const load = loader();
		const client = new ScriptedClient();
		const result = await run(client, new FsStore(root), {
			dataset: datasetFromFacts(facts),
			loadDataset: load
		});
		expect(result.stages.map((s) => [s.stage, s.resumed, s.generated])).toEqual(
			ALL_STAGES.map((stage) => [stage, 4, 0])
		);
		const all = await runAll({
			dataset: datasetFromFacts(facts),
			loadDataset: load,
			client,
			store: new FsStore(root),
			runId: 'r1',
			models: MODELS,
			endpoints: ENDPOINTS
		});
		expect(all.stages.every((s) => s.resumed === 4 && s.generated === 0)).toBe(true);
		expect(load).not.toHaveBeenCalled();
		expect(client.requests).toHaveLength(0);
		expect(await stageFiles()).toEqual(files);
	});

	it('loads the dataset when a stage is not sealed, and makes what is missing from it', async () => {
		await run(new ScriptedClient(), new FsStore(root), { dataset, stages: ['dcg'] });
		const file = await pathOf('DCG_results');
		const dropLast = async () => {
			const lines = (await readFile(file, 'utf8')).split('\n').filter(Boolean);
			expect(lines).toHaveLength(4);
			await writeFile(file, `${lines.slice(0, -1).join('\n')}\n`);
		};
		await dropLast();
		const viaStages = loader();
		const stages = await run(new ScriptedClient(), new FsStore(root), {
			dataset: datasetFromFacts(facts),
			loadDataset: viaStages,
			stages: ['dcg']
		});
		expect(viaStages).toHaveBeenCalledTimes(1);
		expect([stages.stages[0].resumed, stages.stages[0].generated]).toEqual([3, 1]);

		await dropLast();
		const viaAll = loader();
		const all = await runAll({
			dataset: datasetFromFacts(facts),
			loadDataset: viaAll,
			stages: ['dcg'],
			client: new ScriptedClient(),
			store: new FsStore(root),
			runId: 'r1',
			models: MODELS,
			endpoints: ENDPOINTS
		});
		expect(viaAll).toHaveBeenCalledTimes(1);
		expect([all.stages[0].resumed, all.stages[0].generated]).toEqual([3, 1]);
		expect((await readFile(file, 'utf8')).split('\n').filter(Boolean)).toHaveLength(4);
	});

	it('refuses a loaded dataset that is not the file the placeholders stand for, writing nothing', async () => {
		await run(new ScriptedClient(), new FsStore(root), { dataset, stages: ['dcg'] });
		const file = await pathOf('DCG_results');
		const whole = await readFile(file, 'utf8');
		await writeFile(file, whole.split('\n').filter(Boolean).slice(0, 2).join('\n') + '\n');
		const before = await readFile(file, 'utf8');
		const other = makeDataset(4, (k) => ({
			...k,
			case_number: `${k.case_number}x`,
			case_number_value: `${k.case_number_value}x`
		}));
		const client = new ScriptedClient();
		const error = await run(client, new FsStore(root), {
			dataset: datasetFromFacts(facts),
			loadDataset: loader(other),
			stages: ['dcg']
		}).catch((e) => e);
		expect(error).toBeInstanceOf(CheckpointError);
		expect(error.message).toMatch(/dataset file changed while the run was starting/);
		expect(client.requests).toHaveLength(0);
		expect(await readFile(file, 'utf8')).toBe(before);
	});

	it('a placeholder case tells its number and refuses its contents', () => {
		const [kase] = datasetFromFacts(facts).cases;
		expect([kase.index, kase.case_number, kase.case_number_value]).toEqual([
			0,
			String(facts.caseNumbers[0]),
			facts.caseNumbers[0]
		]);
		expect(() => kase.complete).toThrow(/only its number is known; its complete was not loaded/);
		expect(() => kase.claims).toThrow(/claims/);
	});
});

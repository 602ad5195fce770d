/**
 * Resume seals (src/lib/core/engine/seal.ts) with the file store: a finished stage resumes
 * without reading its files, and a seal is never trusted once a file it covers changed.
 */
import { execFileSync } from 'node:child_process';
import { appendFile, mkdtemp, mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FsStore, sealFilePath } from '../../../src/lib/adapters/fs-store';
import { runAll } from '../../../src/lib/core/engine';
import { CheckpointError } from '../../../src/lib/core/errors';
import { stageFilePath } from '../../../src/lib/core/layout';
import { STAGE_FILE_NAMES } from '../../../src/lib/core/records';
import { MemoryStore } from '../../../src/lib/core/store/memory-store';
import { makeDataset } from '../../fixtures/engine/cases';
import { ALL_STAGES, ENDPOINTS, MODELS, run, runKey } from './harness';
import { ScriptedClient } from './scripted-client';

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

/**
 * Rewrites a file in place with the same byte length and sets its modification time back to the
 * nanosecond (`touch -d @s.ns`), as a careful hand edit or a tool preserving times would.
 */
async function editKeepingSizeAndTimes(path: string, from: string, to: string): Promise<void> {
	const before = await stat(path, { bigint: true });
	const text = await readFile(path, 'utf8');
	expect(text).toContain(from);
	expect(Buffer.byteLength(from)).toBe(Buffer.byteLength(to));
	await writeFile(path, text.replace(from, to));
	const ns = (t: bigint) => `@${t / 1_000_000_000n}.${String(t % 1_000_000_000n).padStart(9, '0')}`;
	execFileSync('touch', ['-m', '-d', ns(before.mtimeNs), path]);
	const after = await stat(path, { bigint: true });
	expect([after.size, after.mtimeNs, after.ino]).toEqual([before.size, before.mtimeNs, before.ino]);
}

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

/**
 * Refusals of the core and its stores that no other test made happen: each is made here the way
 * a user meets it (a bad option, a file, a store, a stopped call) and must say where, what and
 * what to do. The words are the catalogue's (`messages/core/en.json`); these tests check what a
 * sentence tells the user, not its historical wording.
 */
import 'fake-indexeddb/auto';
import { promises as fsp } from 'node:fs';
import { mkdtemp as makeTemp, rm } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FsStore } from '../../../src/lib/adapters/fs-store';
import { appendError } from '../../../src/lib/adapters/fs-store-file-state';
import { lockedError } from '../../../src/lib/adapters/fs-store-lock-info';
import type { ProcessProbe } from '../../../src/lib/adapters/fs-store-process';
import { importRuns } from '../../../src/lib/adapters/idb-import';
import { readRunFiles } from '../../../src/lib/adapters/idb-layout-source';
import { listStoredRuns } from '../../../src/lib/adapters/idb-listing';
import { runReviews } from '../../../src/lib/core/agreement/run-reviews';
import { parseCallLog } from '../../../src/lib/core/calls/log';
import { checkRunOptions, type CheckedOptions } from '../../../src/lib/core/engine/run-options';
import {
	CheckpointError,
	ModelCallError,
	RunLockedError,
	UpstreamIncompleteError,
	UsageError
} from '../../../src/lib/core/errors';
import { manifestPath, stageFilePath } from '../../../src/lib/core/layout';
import { createOpenAIClient } from '../../../src/lib/core/model/openai-client';
import type { ChatRequest } from '../../../src/lib/core/model/types';
import { DEFAULT_PROMPT_PACK, parsePromptPack } from '../../../src/lib/core/prompts';
import { compareRuns } from '../../../src/lib/core/results/compare';
import { memorySource } from '../../../src/lib/core/results/source';
import { createSimulatedClient } from '../../../src/lib/core/simulated/simulated-client';
import { checkHead } from '../../../src/lib/core/store/heads';
import { assertKeyFree } from '../../../src/lib/core/store/key-free';
import { checkManifest } from '../../../src/lib/core/store/manifest-file';
import { MemoryStore } from '../../../src/lib/core/store/memory-store';
import { runArgs, runCliInProcess } from '../../cli/run-cli';
import { diskWall } from '../../support/disk-wall';
import { closeTestStores, openTestStore } from '../../support/idb';
import { makeA1, makeManifest } from '../../support/record-factories';
import { useStoredRuns } from '../../support/stored-runs';
import { DATASET } from '../faults/harness';
import { ENDPOINTS, run } from '../engine/harness';
import { ScriptedClient } from '../engine/scripted-client';

/** Folders made by this file's tests, removed after each. */
const temps: string[] = [];
const mkdtemp = async (prefix: string) => {
	const dir = await makeTemp(prefix);
	temps.push(dir);
	return dir;
};

afterEach(async () => {
	vi.restoreAllMocks();
	closeTestStores();
	await Promise.all(temps.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

/** What `call` throws (sync or async), or null. */
const thrown = (call: () => unknown): Promise<Error | null> =>
	(async () => call())().then(
		() => null,
		(e: unknown) => e as Error
	);

const runKey = { runId: 'run1', modelDir: 'gpt-x-4e02b150' };

describe('the engine refuses options it cannot run', () => {
	const base: CheckedOptions = {
		runId: 'run1',
		stages: ['gen'],
		models: { evaluated: 'm', user: 'u', judge: 'j' }
	};
	it.each<[string, Partial<CheckedOptions>, RegExp]>([
		['no stage', { stages: [] }, /^no stage to run$/],
		['an unknown stage, listing the known ones', { stages: ['nope' as never] }, /"nope".*gen, /],
		['a limit below one, with the value', { limit: 0 }, /^limit .*at least 1, got 0$/],
		['no evaluated model', { models: { ...base.models, evaluated: ' ' } }, /no evaluated model/]
	])('%s', async (_, change, says) => {
		const error = await thrown(() => checkRunOptions({ ...base, ...change }, 'in-turn'));
		expect(error).toBeInstanceOf(UsageError);
		expect(error!.message).toMatch(says);
	});
});

describe('the CLI names why the output root cannot be written', () => {
	const errno = (code: string, path: string) =>
		Object.assign(new Error(`${code}: failed, '${path}'`), { code, path });

	it.each([
		['EROFS', 'the file system is read-only'],
		['ENOTDIR', 'a file stands where a folder is needed'],
		['ENOENT', 'the folder cannot be created']
	])('%s: exit 2, the reason in words, nothing called', async (code, why) => {
		const root = join(await mkdtemp(join(tmpdir(), 'lexpilot-root-')), 'out');
		const mkdir = fsp.mkdir.bind(fsp);
		vi.spyOn(fsp, 'mkdir').mockImplementation(async (path, options) => {
			if (String(path).startsWith(root)) throw errno(code, String(path));
			return mkdir(path, options);
		});
		const r = await runCliInProcess(
			runArgs('gen', { dataset: DATASET, root, runId: 'ro', simulated: true })
		);
		expect(r.code).toBe(2);
		expect(r.stderr).toContain(`cannot write under the output root ${root}: ${why} (${code} at`);
		expect(r.stderr).toContain('no model was called');
	});
});

describe('the file store says what a failed write lost and what to do', () => {
	const path = '/out/runs/run1/m/a1.jsonl';
	const identity = JSON.stringify(['7', 'complete']);
	const failed = (code: string) => Object.assign(new Error(`${code}: it failed`), { code });

	it('an append that failed: the record, the cause, earlier records kept', () => {
		const error = appendError(path, identity, failed('EIO'));
		expect(error).toBeInstanceOf(CheckpointError);
		expect(error.message).toMatch(
			/^\/out\/runs\/run1\/m\/a1\.jsonl: could not save the record of case_number 7 \(complete history\) \(EIO: it failed\); earlier records are kept\./
		);
		expect(error.message).toMatch(/resume\.$/);
	});

	it('an append to a file turned read-only asks to make it writable', () => {
		expect(appendError(path, identity, failed('EROFS')).message).toMatch(
			/\(EROFS: it failed\); earlier records are kept\. The file or its disk is no longer writable/
		);
	});

	it('new operational settings on a full disk: what was not saved, the manifest kept', async () => {
		const store = new FsStore(await mkdtemp(join(tmpdir(), 'lexpilot-full-')));
		const manifest = makeManifest(runKey);
		await store.createManifest(manifest);
		const path = store.pathOf(manifestPath(runKey));
		await diskWall({ nth: 1, match: (p) => p.includes('manifest.json') });
		const entry = { at: 'now', timeout_s: 1, retries: 0, concurrency: 1 };
		const error = await thrown(() => store.recordOperational(runKey, entry));
		vi.restoreAllMocks();
		expect(error).toBeInstanceOf(CheckpointError);
		expect(error!.message).toMatch(
			/: the disk is full \(ENOSPC\), so the new operational settings was not saved; everything saved before is kept\./
		);
		expect(error!.message.startsWith(path)).toBe(true);
		expect(await store.readManifest(runKey)).toEqual(manifest);
	});

	it('a torn last line that cannot be moved aside on a full disk names the stage file', async () => {
		const store = new FsStore(await mkdtemp(join(tmpdir(), 'lexpilot-full-')));
		const a1 = store.pathOf(stageFilePath(runKey, 'a1'));
		await fsp.mkdir(join(a1, '..'), { recursive: true });
		await fsp.writeFile(a1, `${JSON.stringify(makeA1('1'))}\n{"case_number":`);
		const release = await store.lock(runKey);
		await diskWall({ nth: 1, match: (p) => p.includes('.torn') });
		const error = await thrown(() => store.appendRecord(runKey, 'a1', makeA1('2')));
		vi.restoreAllMocks();
		await release();
		expect(error).toBeInstanceOf(CheckpointError);
		expect(error!.message).toContain(`so the cut-off last line of ${a1} was not saved`);
	});

	it('a lock left by a writer that is gone: who left it, and how to resume', async () => {
		const dir = await mkdtemp(join(tmpdir(), 'lexpilot-lock-'));
		const lock = join(dir, '.lock');
		const info = { pid: 78, hostname: hostname(), started_at: 'then' };
		await fsp.writeFile(lock, JSON.stringify({ ...info, token: 't' }));
		const gone: ProcessProbe = { self: async () => null, look: async () => ({ kind: 'gone' }) };
		const error = await lockedError(runKey, lock, gone);
		expect(error).toBeInstanceOf(RunLockedError);
		expect(error.message).toContain(`the lock file ${lock} was left by process 78 on`);
		expect(error.message).toMatch(/no longer running .*delete the lock file, and run again/);
	});
});

describe('stores refuse a second writer and a delete under a writer', () => {
	it('the same run locked twice in one session, then deleted while held', async () => {
		const store = new MemoryStore();
		const release = await store.lock(runKey);
		const twice = await thrown(() => store.lock(runKey));
		expect(twice).toBeInstanceOf(RunLockedError);
		expect(twice!.message).toMatch(/^run run1 .* another task of this session; wait/);
		const deleting = await thrown(() => store.deleteRun(runKey));
		expect(deleting).toBeInstanceOf(RunLockedError);
		expect(deleting!.message).toMatch(/is being written; stop that run before deleting it\.$/);
		await release();
	});

	it('the browser store exports no run it does not hold', async () => {
		const error = await thrown(async () => readRunFiles(await openTestStore(), runKey));
		expect(error).toBeInstanceOf(CheckpointError);
		expect(error!.message).toMatch(/^run run1 .* is not in this browser's storage\.$/);
	});
});

describe('a bundle import that meets a run saved meanwhile', () => {
	const fx = useStoredRuns();

	it('imports nothing and asks to try again', async () => {
		const store = await openTestStore();
		const add = IDBObjectStore.prototype.add;
		// Another writer saves the same run between the import's check and its write.
		vi.spyOn(IDBObjectStore.prototype, 'add').mockImplementation(function (
			this: IDBObjectStore,
			value: unknown,
			key?: IDBValidKey
		) {
			if (this.name === 'manifests') this.put(value, key);
			return add.call(this, value, key);
		});
		const error = await thrown(() => importRuns(store, fx.bundle.runs));
		vi.restoreAllMocks();
		expect(error).toBeInstanceOf(CheckpointError);
		expect(error!.message).toMatch(
			/^A run of the bundle was saved in this browser while it was being imported\. Nothing was imported; try again\.$/
		);
		expect(await listStoredRuns(store)).toEqual([]);
	});
});

describe('readers name the file, the line and what is wrong', () => {
	it('a call log cut off mid-line says the log is not needed to score', async () => {
		const error = await thrown(() => parseCallLog('{"a":1}\n{"b"', 'calls.jsonl'));
		expect(error).toBeInstanceOf(CheckpointError);
		expect(error!.message).toMatch(
			/^calls\.jsonl, line 2: .*cut off.*Remove that line; the call log is not needed to score the run\.$/
		);
	});

	it('a call-log line that is no object', async () => {
		const error = await thrown(() => parseCallLog('[1]\n', 'calls.jsonl'));
		expect(error!.message).toMatch(/^calls\.jsonl, line 1: not a call-log entry: line: /);
	});

	it('a manifest that is no object', async () => {
		const error = await thrown(() => checkManifest(7, 'm/manifest.json'));
		expect(error!.message).toMatch(/^m\/manifest\.json: not a valid run manifest: manifest: /);
	});

	it('a saved head whose record is no object', async () => {
		const row = { record: 5, record_sha256: 'a'.repeat(64) };
		const error = await thrown(() => checkHead('a1', row, 'a1.jsonl, line 3'));
		expect(error!.message).toMatch(/^a1\.jsonl, line 3: record: /);
	});

	it('a review file beside a manifest that is none', async () => {
		const decision = {
			...{ run_id: 'run1', model_dir: runKey.modelDir, stage: 'dcg', case_number: '1' },
			...{ history_type: null, round: 1, claim: null }
		};
		const line = { decision, judge_label: '是', reviewer_label: '否', reviewer: 'ann', at: 'now' };
		const source = memorySource(
			{
				[`reviews/run1/${runKey.modelDir}/ann-0123abcd.jsonl`]: `${JSON.stringify(line)}\n`,
				[manifestPath(runKey)]: '{}'
			},
			'bundle.zip'
		);
		const error = await thrown(() =>
			runReviews(source, [{ run_id: 'run1', model_dir: runKey.modelDir }])
		);
		expect(error).toBeInstanceOf(CheckpointError);
		expect(error!.message).toBe(`bundle.zip/${manifestPath(runKey)}: not a manifest`);
	});
});

describe('a key is never written, wherever it hides', () => {
	const key = 'sk-proj-SECRET-0123456789';

	it('a key in an endpoint: the run manifest is refused, naming the field', async () => {
		const endpoints = { ...ENDPOINTS, judge: `https://judge.test/v1?key=${key}` };
		const error = await thrown(() =>
			run(new ScriptedClient(), new MemoryStore(), { stages: ['gen'], keys: [key], endpoints })
		);
		expect(error).toBeInstanceOf(UsageError);
		expect(error!.message).toMatch(
			/Refusing to write the run manifest: endpoints\.judge contains an API key/
		);
		expect(error!.message).not.toContain(key);
	});

	it('a model that echoes the key: its record is refused, naming file and case', async () => {
		const client = new ScriptedClient((r) =>
			r.role === 'evaluated' ? `my key ${key}` : undefined
		);
		const error = await thrown(() =>
			run(client, new MemoryStore(), { stages: ['gen'], keys: [key], concurrency: 1 })
		);
		expect(error).toBeInstanceOf(UsageError);
		expect(error!.message).toMatch(
			/Refusing to write the \w+ record of case_number \S+: \S+ contains an API key/
		);
		expect(error!.message).not.toContain(key);
	});

	it.each<[string, unknown, Parameters<typeof assertKeyFree>[2], RegExp]>([
		[
			'a value that is the key',
			key,
			'the note',
			/^Refusing to write the note: it contains an API key/
		],
		[
			'a top-level field name',
			{ [key]: 1 },
			'the record',
			/^Refusing to write the record: a field name under the top level contains/
		]
	])('%s', async (_, value, what, says) => {
		const error = await thrown(() => assertKeyFree(value, [key], what));
		expect(error).toBeInstanceOf(UsageError);
		expect(error!.message).toMatch(says);
		expect(error!.message).not.toContain(key);
	});
});

describe('the model client refuses a call it cannot send, naming the role', () => {
	const request: ChatRequest = {
		role: 'judge',
		task: 'judge_lca',
		prompt: 'p',
		temperature: 0,
		maxTokens: 1,
		caseNumber: '7'
	};
	const ep = { baseURL: 'https://api.example.com/v1', apiKey: 'sk-1234567890', model: 'm' };

	it('no endpoint for the role', async () => {
		const client = createOpenAIClient({ evaluated: ep, user: ep } as never);
		const error = await thrown(() => client.complete(request));
		expect(error).toBeInstanceOf(ModelCallError);
		expect(error!.message).toBe('no endpoint configured for the judge model');
	});

	it('a base URL that is not http(s)', async () => {
		const bad = { ...ep, baseURL: 'ftp://host/v1' };
		const client = createOpenAIClient({ evaluated: ep, user: ep, judge: bad });
		const error = await thrown(() => client.complete(request));
		expect(error).toBeInstanceOf(ModelCallError);
		expect(error!.message).toMatch(/^the judge model's base URL must be an http\(s\) URL, got /);
	});

	it('a simulated call stopped before its answer', async () => {
		const stop = new AbortController();
		stop.abort();
		const client = createSimulatedClient({ latencyMs: 10_000 });
		const error = await thrown(() => client.complete({ ...request, signal: stop.signal }));
		expect(error).toBeInstanceOf(ModelCallError);
		expect(error!.message).toBe('case 7: stopped before the judge model answered');
	});
});

describe('results compare refuses runs it cannot pair', () => {
	it('runs of different case selections: which cases differ, and to use the same --limit', async () => {
		const store = new MemoryStore();
		await run(new ScriptedClient(), store, { stages: ['gen'], runId: 'r1' });
		await run(new ScriptedClient(), store, { stages: ['gen'], runId: 'r2', limit: 3 });
		const source = memorySource(Object.fromEntries(store.toFiles()));
		const error = await thrown(() =>
			compareRuns(source, { a: { runId: 'r1' }, b: { runId: 'r2' } })
		);
		expect(error).toBeInstanceOf(UsageError);
		expect(error!.message).toMatch(
			/^cannot compare run "r1" with run "r2": the runs select different cases \(A 4, B 3; only in A: 1 /
		);
		expect(error!.message).toMatch(
			/Compare runs made with the same --limit \(or case selection\)\.$/
		);
	});
});

describe('results compare refuses runs it cannot find', () => {
	it('an empty output root, a run named with its model', async () => {
		const error = await thrown(() =>
			compareRuns(memorySource({}), { a: { runId: 'r1', model: 'm' }, b: { runId: 'r2' } })
		);
		expect(error).toBeInstanceOf(UsageError);
		expect(error!.message).toMatch(
			/^run A: no run "r1" of model "m" \(.*There are no runs at all\.$/
		);
	});
});

describe('a stage whose upstream is missing says which stages are saved', () => {
	it.each([
		[['ljp-direct'], 'ljp-direct completed: 4 of 4 cases are saved. Make the missing stage'],
		[
			['dcg', 'ljp-direct', 'ljp-gold'],
			'dcg, ljp-direct and ljp-gold completed: 4 of 4 cases are saved in each.'
		]
	])('after %j', async (before, says) => {
		const stages = [...before, 'ljp-interaction'] as never;
		const error = await thrown(() => run(new ScriptedClient(), new MemoryStore(), { stages }));
		expect(error).toBeInstanceOf(UpstreamIncompleteError);
		expect(error!.message).toMatch(/^ljp-interaction needs .*interaction\.jsonl complete/);
		expect(error!.message.split('\n')[1]).toContain(says);
	});
});

describe('a prompt pack import lists every problem', () => {
	it('an empty version and a blank template, one line each', async () => {
		const pack = {
			...DEFAULT_PROMPT_PACK,
			version: '',
			templates: { ...DEFAULT_PROMPT_PACK.templates, lexawn: ' ' }
		};
		const error = await thrown(() => parsePromptPack(JSON.stringify(pack)));
		expect(error).toBeInstanceOf(UsageError);
		const [head, ...lines] = error!.message.split('\n');
		expect(head).toBe('prompt pack is invalid:');
		expect(lines).toEqual(
			expect.arrayContaining([
				'  - version: version must not be empty',
				'  - templates.lexawn: template "lexawn" is empty'
			])
		);
	});
});

/**
 * Resuming a run (store/resume.ts): comparing a manifest, category changes, opening a run,
 * loading its checkpoint, key-free records, operational changes. One file because it tests one
 * module whose functions share the one saved manifest (`saved`) that each test changes a field of.
 */
import { describe, expect, it } from 'vitest';
import { CheckpointError, UsageError } from '../errors';
import { sha256Canonical } from '../hash';
import { toJsonLine } from '../jsonl';
import { stageFilePath } from '../layout';
import type { Manifest } from '../records';
import { recordIdentity } from './identity';
import { MemoryStore } from './memory-store';
import { fakeSha, makeA1, makeDcg, makeManifest } from '../../../../tests/support/record-factories';
import {
	assertKeyFree,
	categoryChanges,
	compareManifest,
	loadCheckpoint,
	openRun,
	operationalChange
} from './resume';
import { english } from '../voice';

const run = { runId: 'run1', modelDir: 'gpt-x-4e02b150' };
const saved = makeManifest(run);

function changed(edit: (m: Manifest) => void): Manifest {
	const copy = structuredClone(saved);
	edit(copy);
	return copy;
}

describe('compareManifest', () => {
	it('finds nothing between a manifest and itself', () => {
		expect(compareManifest(saved, structuredClone(saved))).toEqual([]);
	});

	it.each<[string, (m: Manifest) => void, string]>([
		[
			'temperature',
			(m) => (m.settings.temperature = 0.5),
			'settings.temperature: saved 0.7, now 0.5'
		],
		[
			'judge temperature',
			(m) => (m.settings.judge_temperature = 0),
			'settings.judge_temperature: saved 0.1, now 0'
		],
		[
			'max tokens',
			(m) => (m.settings.max_tokens = 4096),
			'settings.max_tokens: saved 8192, now 4096'
		],
		[
			'dataset file',
			(m) => (m.dataset.sha256 = fakeSha('other dataset')),
			`dataset.sha256: saved ${fakeSha('dataset').slice(0, 12)}…, now ${fakeSha('other dataset').slice(0, 12)}…`
		],
		['case count', (m) => (m.dataset.n_cases = 4), 'dataset.n_cases: saved 3, now 4'],
		[
			'a different limit',
			(m) => (m.dataset.selected_case_numbers = ['1', '2']),
			'dataset.selected_case_numbers: saved 3 cases, now 2'
		],
		[
			'other cases, same count',
			(m) => (m.dataset.selected_case_numbers = ['1', 'X', '3']),
			'dataset.selected_case_numbers: saved 3 cases, now 3; first difference at position 2: saved "2", now "X"'
		],
		[
			'history field mapping',
			(m) => (m.dataset.history_fields.underspecified = 'partial'),
			'dataset.history_fields.underspecified: saved "underspecified_consultation", now "partial"'
		],
		[
			'code',
			(m) => (m.code_sha256 = fakeSha('v2')),
			`code_sha256: saved ${fakeSha('code').slice(0, 12)}…, now ${fakeSha('v2').slice(0, 12)}…`
		],
		[
			'prompt pack',
			(m) => (m.prompts_sha256 = fakeSha('edited')),
			`prompts_sha256: saved ${fakeSha('prompts').slice(0, 12)}…, now ${fakeSha('edited').slice(0, 12)}…`
		],
		[
			'judge model',
			(m) => (m.models.judge = 'gpt-4o'),
			'models.judge: saved "DeepSeek-R1", now "gpt-4o"'
		],
		[
			'user endpoint',
			(m) => (m.endpoints.user = 'http://localhost:8000/v1'),
			'endpoints.user: saved "https://api.deepseek.com/v1", now "http://localhost:8000/v1"'
		],
		['simulated provider', (m) => (m.simulated = true), 'simulated: saved false, now true']
	])('refuses a changed %s', (_, edit, line) => {
		expect(compareManifest(saved, changed(edit)).map((d) => english(d))).toEqual([line]);
	});

	it.each<[string, (m: Manifest) => void]>([
		['creation time', (m) => (m.created_at = '2031-05-05T00:00:00.000Z')],
		['tool version', (m) => (m.tool.version = '0.2.0')],
		['category map', (m) => (m.categories = { 民间借贷纠纷: '借贷' })],
		['trailing slash of a base URL', (m) => (m.endpoints.evaluated += '/')],
		// PROTOCOL.md §5–§6: operational, recorded, never a reason to refuse.
		['timeout', (m) => (m.settings.timeout_s = 600)],
		['retries', (m) => (m.settings.retries = 10)],
		[
			'operational history',
			(m) =>
				(m.operational_history = [{ at: m.created_at, timeout_s: 5, retries: 0, concurrency: 64 }])
		]
	])('accepts a changed %s', (_, edit) => {
		expect(compareManifest(saved, changed(edit))).toEqual([]);
	});

	it('lists every difference at once', () => {
		const wanted = changed((m) => {
			m.settings.temperature = 1;
			m.models.evaluated = 'gpt-y';
			m.simulated = true;
		});
		expect(compareManifest(saved, wanted)).toHaveLength(3);
	});
});

describe('categoryChanges', () => {
	it('is silent for the same map and names a changed cause otherwise', () => {
		expect(categoryChanges(saved, structuredClone(saved))).toBeNull();
		const warning = categoryChanges(
			saved,
			changed((m) => (m.categories['离婚纠纷'] = '其他'))
		);
		expect(english(warning!)).toContain(
			'1 cause(s), e.g. 离婚纠纷: saved "婚姻家庭纠纷", now "其他"'
		);
	});
});

describe('openRun', () => {
	it('creates the manifest of a new run, then resumes it', async () => {
		const store = new MemoryStore();
		expect(await openRun(store, saved)).toEqual({
			created: true,
			manifest: saved,
			warnings: [],
			warningsSaid: []
		});
		expect(await store.readManifest(run)).toEqual(saved);
		const again = await openRun(
			store,
			changed((m) => (m.created_at = '2031-01-01T00:00:00.000Z'))
		);
		expect(again).toEqual({ created: false, manifest: saved, warnings: [], warningsSaid: [] });
	});

	it('resumes with a warning when only the category map changed, keeping the saved map', async () => {
		const store = new MemoryStore();
		await openRun(store, saved);
		const result = await openRun(
			store,
			changed((m) => (m.categories = {}))
		);
		expect(result.created).toBe(false);
		expect(result.warnings).toHaveLength(1);
		expect((await store.readManifest(run))?.categories).toEqual(saved.categories);
	});

	it('refuses a resume with changed inputs, listing each, and overwrites nothing', async () => {
		const store = new MemoryStore();
		await openRun(store, saved);
		const wanted = changed((m) => {
			m.settings.temperature = 0.5;
			m.models.user = 'other-user-model';
		});
		const error = await openRun(store, wanted).catch((e: unknown) => e);
		expect(error).toBeInstanceOf(CheckpointError);
		const message = (error as Error).message;
		expect(message).toContain('runs/run1/gpt-x-4e02b150/manifest.json');
		expect(message).toContain('settings.temperature: saved 0.7, now 0.5');
		expect(message).toContain('models.user: saved "DeepSeek-V4.1-Flash", now "other-user-model"');
		expect(message).toContain('new run id (--run-id)');
		expect(await store.readManifest(run)).toEqual(saved);
	});

	it("refuses a re-judged run's resume naming its own flag, --as", async () => {
		const store = new MemoryStore();
		const rejudged = changed((m) => {
			m.rejudged_from = {
				run_id: 'run0',
				model_dir: run.modelDir,
				judge: 'judge-a',
				prompts_sha256: fakeSha('prompts'),
				stages: ['lca'],
				shared_files: []
			};
		});
		await openRun(store, rejudged);
		const wanted = structuredClone(rejudged);
		wanted.settings.temperature = 0.5;
		const message = ((await openRun(store, wanted).catch((e: unknown) => e)) as Error).message;
		expect(message).toContain('settings.temperature: saved 0.7, now 0.5');
		expect(message).toContain('new run id (--as)');
		expect(message).not.toContain('--run-id');
	});

	it('records a resume that changed timeout, retries or concurrency, keeping the first settings', async () => {
		const store = new MemoryStore();
		const first = { at: saved.created_at, timeout_s: 120, retries: 3, concurrency: 4 };
		const started = changed((m) => (m.operational_history = [first]));
		await openRun(store, started);
		const later = { at: '2031-01-01T00:00:00.000Z', timeout_s: 300, retries: 10, concurrency: 1 };
		const wanted = changed((m) => {
			m.created_at = later.at;
			m.settings.timeout_s = 300;
			m.settings.retries = 10;
			m.operational_history = [later];
		});
		const result = await openRun(store, wanted);
		expect(result.created).toBe(false);
		const kept = await store.readManifest(run);
		expect(kept?.operational_history).toEqual([first, later]);
		expect(kept?.settings).toEqual(saved.settings);
		expect(kept?.created_at).toBe(saved.created_at);
		expect(result.manifest).toEqual(kept);
		// The same values again add nothing.
		await openRun(
			store,
			changed((m) => (m.operational_history = [{ ...later, at: '2032-01-01T00:00:00.000Z' }]))
		);
		expect((await store.readManifest(run))?.operational_history).toEqual([first, later]);
	});

	it('refuses a manifest that holds a key, before writing it', async () => {
		const store = new MemoryStore();
		const key = 'sk-live-0123456789abcdef';
		const leaky = changed((m) => (m.endpoints.judge = `https://judge.example/v1?api-key=${key}`));
		await expect(openRun(store, leaky, { keys: [key] })).rejects.toThrow(UsageError);
		expect(await store.readManifest(run)).toBeNull();
	});
});

describe('loadCheckpoint', () => {
	const cases = ['1', '2', '3'];
	const expectedA1 = new Map(
		cases.flatMap((c) =>
			(['complete', 'underspecified'] as const).map((t) => {
				const r = makeA1(c, t);
				return [recordIdentity('a1', r), r.input_sha256] as const;
			})
		)
	);

	it('keeps matching records and lists the missing ones in dataset order', async () => {
		const store = new MemoryStore();
		const done = [makeA1('3', 'complete'), makeA1('1', 'underspecified')];
		for (const r of done) await store.appendRecord(run, 'a1', r);
		const { kept, missing } = await loadCheckpoint(store, run, 'a1', expectedA1);
		// Heads: the records less their histories, each with the SHA-256 of the whole record.
		expect([...kept.values()]).toEqual(
			await Promise.all(
				done.map(async (record) => {
					const rest = Object.entries(record).filter(([key]) => key !== 'history');
					return { record: Object.fromEntries(rest), record_sha256: await sha256Canonical(record) };
				})
			)
		);
		expect(missing).toEqual([
			recordIdentity('a1', { case_number: '1', history_type: 'complete' }),
			recordIdentity('a1', { case_number: '2', history_type: 'complete' }),
			recordIdentity('a1', { case_number: '2', history_type: 'underspecified' }),
			recordIdentity('a1', { case_number: '3', history_type: 'underspecified' })
		]);
	});

	it('asks for the expected hash of saved records only, so a fresh file costs no hashing', async () => {
		const store = new MemoryStore();
		const asked: string[] = [];
		const expected = {
			identities: [...expectedA1.keys()],
			inputSha256: async (identity: string) => {
				asked.push(identity);
				return expectedA1.get(identity)!;
			}
		};
		expect((await loadCheckpoint(store, run, 'a1', expected)).missing).toHaveLength(6);
		expect(asked).toEqual([]);
		await store.appendRecord(run, 'a1', makeA1('2', 'underspecified'));
		const { kept } = await loadCheckpoint(store, run, 'a1', expected);
		expect(kept.size).toBe(1);
		expect(asked).toEqual([recordIdentity('a1', makeA1('2', 'underspecified'))]);
	});

	it('reports nothing missing for a complete file', async () => {
		const store = new MemoryStore();
		for (const c of cases) await store.appendRecord(run, 'DCG_results', makeDcg(c));
		const expected = new Map(
			cases.map((c) => [recordIdentity('DCG_results', { case_number: c }), makeDcg(c).input_sha256])
		);
		const { kept, missing } = await loadCheckpoint(store, run, 'DCG_results', expected);
		expect(kept.size).toBe(3);
		expect(missing).toEqual([]);
	});

	it.each([
		[
			'a record made from other inputs',
			[makeA1('1', 'complete'), makeA1('2', 'complete', { input_sha256: fakeSha('old prompts') })],
			/line 2 \(case_number 2 \(complete history\)\): saved from different inputs.*Use a new run id/
		],
		[
			'a record for a case that is not selected',
			[makeA1('1', 'complete'), makeA1('77', 'complete')],
			/line 2 \(case_number 77 \(complete history\)\): saved, but this case is not among the run's selected cases/
		],
		[
			'the same record twice',
			[makeA1('1', 'complete'), makeA1('2', 'complete'), makeA1('1', 'complete')],
			/line 3 \(case_number 1 \(complete history\)\): saved twice \(first at line 1\)/
		]
	])('refuses %s, naming file, line and case', async (_, records, pattern) => {
		const path = stageFilePath(run, 'a1');
		const store = MemoryStore.fromFiles([[path, records.map(toJsonLine).join('')]]);
		const error = await loadCheckpoint(store, run, 'a1', expectedA1).catch((e: unknown) => e);
		expect(error).toBeInstanceOf(CheckpointError);
		expect((error as Error).message).toContain(path);
		expect((error as Error).message).toMatch(pattern);
		expect(store.toFiles().get(path)).toBe(records.map(toJsonLine).join(''));
	});

	it('lists every problem of a file, not just the first', async () => {
		const path = stageFilePath(run, 'a1');
		const records = [
			makeA1('8'),
			makeA1('9'),
			makeA1('1', 'complete', { input_sha256: fakeSha('x') })
		];
		const store = MemoryStore.fromFiles([[path, records.map(toJsonLine).join('')]]);
		await expect(loadCheckpoint(store, run, 'a1', expectedA1)).rejects.toThrow(
			/3 saved record\(s\) do not fit this run:\n {2}- line 1.*\n {2}- line 2.*\n {2}- line 3/
		);
	});
});

describe('assertKeyFree', () => {
	const key = 'sk-proj-SECRET-0123456789';

	it.each<[string, unknown, string]>([
		['a top-level field', { api_key: key }, 'api_key'],
		[
			'a base URL query',
			{ endpoints: { judge: `https://x.example/v1?key=${key}` } },
			'endpoints.judge'
		],
		[
			'a message in a history',
			{ history: [{ content: 'hi' }, { content: `my key ${key}` }] },
			'history[1].content'
		],
		['a field name', { nested: { [key]: true } }, 'a field name under nested']
	])('finds a key in %s and names the place without repeating the key', (_, value, place) => {
		const error = (() => {
			try {
				assertKeyFree(value, [key], 'the record');
			} catch (e) {
				return e as Error;
			}
		})();
		expect(error).toBeInstanceOf(UsageError);
		expect(error?.message).toContain(`Refusing to write the record: ${place} contains an API key`);
		expect(error?.message).not.toContain(key);
	});

	it.each<[string, unknown, string[]]>([
		['a value without the key', makeManifest(run), [key]],
		['keys too short to be real (an empty or test key)', { text: 'sk test' }, ['', 'sk', 'test']],
		['no keys at all', { api_key: key }, []]
	])('passes %s', (_, value, keys) => {
		expect(() => assertKeyFree(value, keys)).not.toThrow();
	});
});

describe('operationalChange', () => {
	const entry = (at: string, timeout_s: number, retries: number, concurrency: number) => ({
		at,
		timeout_s,
		retries,
		concurrency
	});
	const withHistory = (...history: ReturnType<typeof entry>[]) =>
		changed((m) => (m.operational_history = history));

	it('compares with the last entry in force', () => {
		const saved = withHistory(entry('t0', 120, 3, 4), entry('t1', 300, 10, 1));
		expect(operationalChange(saved, withHistory(entry('t2', 300, 10, 1)))).toBeNull();
		expect(operationalChange(saved, withHistory(entry('t2', 120, 3, 4)))).toEqual(
			entry('t2', 120, 3, 4)
		);
	});

	it('reads a manifest without history by its settings; its unknown concurrency is no change', () => {
		expect(operationalChange(saved, withHistory(entry('t2', 120, 3, 16)))).toBeNull();
		expect(operationalChange(saved, withHistory(entry('t2', 120, 5, 16)))).toEqual(
			entry('t2', 120, 5, 16)
		);
	});
});

/**
 * The last errors the core and its adapters threw as English literals, now coded (`src/lib/core/
 * said.ts`, the block "last English errors"): the English made from the catalogue must be, byte
 * for byte, what each literal said. Each `was` below is the literal as it stood in the code,
 * applied to the same values (hostile ones included), and compared as a terminal shows it (the
 * CLI prints every line through escapeForTerminal); the Chinese must be there and differ.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { promises as fs } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runReviews } from '../../../src/lib/core/agreement/run-reviews';
import {
	DEFAULT_PROMPT_PACK,
	promptPackProblems,
	promptPackProblemsSaid,
	TEMPLATE_NAMES
} from '../../../src/lib/core/prompts';
import { requireComplete } from '../../../src/lib/core/engine/stages/shared';
import {
	CheckpointError,
	ModelCallError,
	RunLockedError,
	UpstreamIncompleteError,
	UsageError,
	saidOf
} from '../../../src/lib/core/errors';
import { manifestPath, stageFilePath } from '../../../src/lib/core/layout';
import type { LoadedRun } from '../../../src/lib/core/results/compare';
import { compareLoaded } from '../../../src/lib/core/results/compare';
import { memorySource } from '../../../src/lib/core/results/source';
import { coded, type CoreText } from '../../../src/lib/core/said';
import { createSimulatedClient } from '../../../src/lib/core/simulated/simulated-client';
import { runLabel } from '../../../src/lib/core/store/checks';
import { assertKeyFree } from '../../../src/lib/core/store/key-free';
import { escapeControl, escapeForTerminal } from '../../../src/lib/core/text/escape-control';
import { MemoryStore } from '../../../src/lib/core/store/memory-store';
import { appendError } from '../../../src/lib/adapters/fs-store-file-state';
import { unwritableError } from '../../../src/lib/adapters/fs-store-io';
import { lockedError } from '../../../src/lib/adapters/fs-store-lock-info';
import { acquireLock, releaseLock } from '../../../src/lib/adapters/fs-store-lock';
import type { ProcessProbe } from '../../../src/lib/adapters/fs-store-process';
import { diskFullError } from '../../../src/lib/adapters/fs-store-write';
import { overwriteGetLocale } from '../../../src/lib/paraglide/runtime';
import { coreText } from '../../../src/lib/view/core-text';
import { makeDataset } from '../../fixtures/engine/cases';
import { run, runKey } from '../engine/harness';
import { ScriptedClient } from '../engine/scripted-client';

afterEach(() => {
	overwriteGetLocale(() => 'en');
	vi.restoreAllMocks();
});

/** `error` says `was` (as a terminal shows it), every piece coded, and Chinese apart from it. */
function says(error: unknown, was: string): string {
	expect(error, 'it throws').toBeInstanceOf(Error);
	const message = (error as Error).message;
	expect(escapeForTerminal(message)).toBe(escapeForTerminal(was));
	const said = saidOf(error);
	expect(said, 'every piece is coded').toBeDefined();
	overwriteGetLocale(() => 'zh-CN');
	const chinese = coreText(message, said);
	overwriteGetLocale(() => 'en');
	expect(chinese).not.toBe(message);
	expect(chinese).toMatch(/[\u4e00-\u9fff]/);
	return chinese;
}

const thrown = async (call: () => unknown) =>
	(async () => call())().then(
		() => null,
		(e: unknown) => e
	);

const run1 = { runId: 'run1', modelDir: 'gpt-x-4e02b150' };
const hostile = 'x\u001b[2J\u202e';

describe('the file store’s lock refusals say what their literals said', () => {
	const only = 'Only one writer per run id and model is allowed.';
	const probe = (alive: number[]): ProcessProbe => ({
		self: async () => null,
		look: async (pid) => (alive.includes(pid) ? { kind: 'alive', start: null } : { kind: 'gone' })
	});

	async function refusal(lock: string, alive: number[] = []) {
		const dir = await mkdtemp(join(tmpdir(), 'lexpilot-lock-'));
		try {
			const path = join(dir, '.lock');
			await writeFile(path, lock);
			const error = await lockedError(run1, path, probe(alive));
			expect(error).toBeInstanceOf(RunLockedError);
			return { error, path };
		} finally {
			await rm(dir, { recursive: true, force: true });
		}
	}
	const lockOf = (pid: number, host: string) =>
		JSON.stringify({ pid, hostname: host, started_at: hostile, token: 't' });
	const who = (pid: number, host: string) =>
		`process ${pid} on ${escapeControl(host)}, started ${escapeControl(hostile)}`;

	it('a lock that names no writer', async () => {
		const { error, path } = await refusal('garbage');
		says(
			error,
			`${runLabel(run1)}: the lock file ${path} exists but does not say who holds it (a writer may ` +
				'have been killed while taking it). If no lexpilot process is writing this run, delete ' +
				'that file and run again.'
		);
	});

	it('a lock of another host', async () => {
		const { error, path } = await refusal(lockOf(4242, `lab${hostile}`));
		says(
			error,
			`${runLabel(run1)} is locked by ${who(4242, `lab${hostile}`)} (${path}). ${only} If that process is no longer ` +
				'running, delete the lock file and run again.'
		);
	});

	it('a lock of this very process', async () => {
		const { error, path } = await refusal(lockOf(process.pid, hostname()), [process.pid]);
		says(
			error,
			`${runLabel(run1)} is already being written by this process (lock file ${path}). ${only}`
		);
	});

	it('a lock of another live process of this host', async () => {
		const { error, path } = await refusal(lockOf(77, hostname()), [77]);
		says(
			error,
			`${runLabel(run1)} is being written by another lexpilot ${who(77, hostname())} (lock file ${path}). Wait ` +
				`for it to finish or stop it. ${only}`
		);
	});

	it('a lock left by a process that is gone', async () => {
		const { error, path } = await refusal(lockOf(78, hostname()), []);
		says(
			error,
			`${runLabel(run1)}: the lock file ${path} was left by ${who(78, hostname())}, which is no longer running ` +
				'(the run was interrupted). Make sure no other lexpilot writes this run, delete the lock ' +
				'file, and run again to resume.'
		);
	});

	it('a lock that cannot be removed', async () => {
		const dir = await mkdtemp(join(tmpdir(), 'lexpilot-lock-'));
		try {
			const path = join(dir, '.lock');
			const options = { notice: () => {}, unwritable: (e: unknown) => e, processes: probe([]) };
			const info = await acquireLock(run1, path, options);
			vi.spyOn(fs, 'unlink').mockRejectedValueOnce(
				Object.assign(new Error('EBUSY: resource busy'), { code: 'EBUSY' })
			);
			const error = await thrown(() => releaseLock(path, info));
			expect(error).toBeInstanceOf(CheckpointError);
			says(
				error,
				`could not remove the lock file ${path} (EBUSY); ` +
					'the next run on this host takes it over once this process has ended, or delete it.'
			);
		} finally {
			await rm(dir, { recursive: true, force: true });
		}
	});
});

describe('the file store’s write refusals say what their literals said', () => {
	const failed = (code: string, message = `${code}: it failed`) =>
		Object.assign(new Error(message), { code });

	it.each([
		['EROFS', 'the file system is read-only'],
		['ENOTDIR', 'a file stands where a folder is needed'],
		['EEXIST', 'a file stands where a folder is needed'],
		['ENOENT', 'the folder cannot be created'],
		['EACCES', 'permission denied'],
		['EPERM', 'permission denied']
	])('an output root that cannot be written (%s)', (code, why) => {
		const root = `/out${hostile}`;
		says(
			unwritableError(root, failed(code), `${root}/runs`),
			`cannot write under the output root ${root}: ${why} (${code} at ${root}/runs). Choose a ` +
				'folder you can write with --output-root, or make this one writable; nothing was ' +
				'written and no model was called.'
		);
		const other = failed('EIO');
		expect(unwritableError(root, other, root)).toBe(other);
	});

	const identity = JSON.stringify([`E-1${hostile}`, 'underspecified']);
	const record = `the record of case_number ${escapeControl(`E-1${hostile}`)} (underspecified history)`;
	const path = '/out/runs/run1/m/a1.jsonl';

	it.each<[string, CoreText, string]>([
		[
			'a record',
			coded(
				'disk_what_record',
				{},
				{
					identity: [
						coded('identity_case_history', { caseNumber: `E-1${hostile}`, role: 'underspecified' })
					]
				}
			),
			record
		],
		['the manifest', coded('disk_what_manifest', {}), 'the manifest'],
		['the settings', coded('disk_what_settings', {}), 'the new operational settings'],
		['the lock', coded('disk_what_lock', {}), 'the lock file'],
		['a torn line', coded('disk_what_torn', { file: path }), `the cut-off last line of ${path}`],
		['a reorder', coded('disk_what_ordered', {}), 'the file in dataset order']
	])('a full disk while saving %s', (_, what, whatWas) => {
		says(
			diskFullError(path, what, failed('ENOSPC')),
			`${path}: the disk is full (ENOSPC), so ${whatWas} was not saved; everything saved ` +
				'before is kept. Free space on that disk, then run the same command again to resume.'
		);
	});

	it('an append refused: a full disk, a read-only file, another failure', () => {
		says(
			appendError(path, identity, failed('EDQUOT')),
			`${path}: the disk is full (EDQUOT), so ${record} was not saved; everything saved ` +
				'before is kept. Free space on that disk, then run the same command again to resume.'
		);
		for (const code of ['EROFS', 'EACCES', 'EPERM']) {
			says(
				appendError(path, identity, failed(code)),
				`${path}: could not save ${record} (${code}: it failed); earlier records are kept. ` +
					'The file or its disk is no longer writable: fix that, then resume.'
			);
		}
		says(
			appendError(path, identity, failed('EIO', 'EIO: i/o error, write')),
			`${path}: could not save ${record} (EIO: i/o error, write); earlier records are kept. ` +
				'Free space, then resume.'
		);
	});
});

describe('a missing upstream stage says what its literals said', () => {
	it('the refusal, with and without a history', () => {
		const ctx = { run: run1 } as never;
		for (const [missing, first] of [
			[
				JSON.stringify([`7${hostile}`, 'complete']),
				`${escapeControl(`7${hostile}`)} (complete history)`
			],
			[JSON.stringify(['7']), '7']
		]) {
			const error = (() => {
				try {
					requireComplete(ctx, 'lca', 'a1', [missing, '[]'], 8, 'gen');
				} catch (e) {
					return e;
				}
			})();
			expect(error).toBeInstanceOf(UpstreamIncompleteError);
			says(
				error,
				`lca needs ${stageFilePath(run1, 'a1')} complete for the selected cases, but ` +
					`2 of 8 records are missing (first: case_number ${first}). ` +
					'Run "gen" with the same run id, model and settings first.'
			);
		}
	});

	/** What `savedSoFar` said after the stages `names` completed `total` cases each. */
	const savedWas = (names: string[], total: number) => {
		const list =
			names.length === 1
				? names[0]
				: `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
		return (
			`${list} completed: ${total} of ${total} cases are saved${names.length > 1 ? ' in each' : ''}. ` +
			'Make the missing stage, then run the same command again: finished stages are not repeated.'
		);
	};

	it.each([[['ljp-direct']], [['ljp-direct', 'ljp-gold']], [['dcg', 'ljp-direct', 'ljp-gold']]])(
		'after %j ran, with what they saved',
		async (before) => {
			const store = new MemoryStore();
			const stages = [...before, 'ljp-interaction'] as never;
			const error = await run(new ScriptedClient(), store, { stages }).catch((e: unknown) => e);
			expect(error).toBeInstanceOf(UpstreamIncompleteError);
			const refusal =
				`ljp-interaction needs ${stageFilePath(await runKey(), 'interaction')} complete for the selected cases, but ` +
				`4 of 4 records are missing (first: case_number ${makeDataset(4).cases[0].case_number}). ` +
				'Run "gen" with the same run id, model and settings first.';
			const chinese = says(error, `${refusal}\n${savedWas(before, 4)}`);
			expect(chinese.split('\n')[1]).toMatch(/已完成/);
		}
	);
});

describe('reviews, the simulated client and the key check say what their literals said', () => {
	it('a review file beside a manifest that is none', async () => {
		const decision = {
			run_id: 'run1',
			model_dir: run1.modelDir,
			stage: 'dcg',
			case_number: '1',
			history_type: null,
			round: 1,
			claim: null
		};
		const line = { decision, judge_label: '是', reviewer_label: '否', reviewer: 'ann', at: 'now' };
		const source = memorySource(
			{
				[`reviews/run1/${run1.modelDir}/ann-0123abcd.jsonl`]: `${JSON.stringify(line)}\n`,
				[manifestPath(run1)]: '{}'
			},
			'bundle.zip'
		);
		const error = await thrown(() =>
			runReviews(source, [{ run_id: 'run1', model_dir: run1.modelDir }])
		);
		expect(error).toBeInstanceOf(CheckpointError);
		says(error, `bundle.zip/${manifestPath(run1)}: not a manifest`);
	});

	it('a simulated call stopped before its answer', async () => {
		const client = createSimulatedClient({ latencyMs: 10_000 });
		const stop = new AbortController();
		stop.abort();
		const request = { role: 'judge', task: 'judge_lca', prompt: 'p', caseNumber: `E${hostile}` };
		const error = await thrown(() =>
			client.complete({ ...request, temperature: 0, maxTokens: 1, signal: stop.signal } as never)
		);
		expect(error).toBeInstanceOf(ModelCallError);
		expect((error as ModelCallError).details.kind).toBe('aborted');
		const chinese = says(error, `case E${hostile}: stopped before the judge model answered`);
		expect(chinese).toContain('评审模型');
	});

	const key = 'sk-proj-SECRET-0123456789';
	const tail =
		'contains an API key. Keys are kept in memory only; take the key out of that field (for ' +
		'example out of a base URL) and try again.';

	it.each<[string, unknown, CoreText | string | undefined, string]>([
		['a path, the default name', { a: { b: [key] } }, undefined, 'the value: a.b[0]'],
		['the value itself', key, coded('key_free_manifest', {}), 'the run manifest: it'],
		[
			'a field name under a path',
			{ a: { [key]: 1 } },
			coded('key_free_record', { file: 'a1', caseNumber: `7${hostile}` }),
			`the a1 record of case_number ${escapeControl(`7${hostile}`)}: a field name under a`
		],
		[
			'a field name at the top',
			{ [key]: 1 },
			'the record',
			'the record: a field name under the top level'
		]
	])('a key in %s', (_, value, what, place) => {
		const error = (() => {
			try {
				assertKeyFree(value, [key], what);
			} catch (e) {
				return e;
			}
		})();
		expect(error).toBeInstanceOf(UsageError);
		const chinese = says(error, `Refusing to write ${place} ${tail}`);
		expect(chinese).not.toContain(key);
	});
});

describe('a missing file, a full disk under the call log, a batch endpoint say what they said', () => {
	it('a file a source does not hold', async () => {
		const error = await thrown(() => memorySource({}).read(`runs/${hostile}/x.jsonl`));
		expect(error).toBeInstanceOf(CheckpointError);
		says(error, `runs/${hostile}/x.jsonl: no such file`);
	});

	it('the call log on a full disk, and a batch file of an endpoint the run has not', () => {
		const path = '/out/runs/run1/m/calls.jsonl';
		says(
			new CheckpointError([coded('calls_disk_full', { file: path, code: 'ENOSPC' })]),
			`${path}: the disk is full (ENOSPC)`
		);
		const endpoint = 'https://api.example.com/v1';
		says(
			new UsageError([coded('batch_no_endpoint', { endpoint })]),
			`no endpoint of this run is ${endpoint}`
		);
	});
});

describe('the prompt pack’s shape check says what its literals said', () => {
	const templates = DEFAULT_PROMPT_PACK.templates;
	const withoutLexawn = Object.fromEntries(
		Object.entries(templates).filter(([name]) => name !== 'lexawn')
	);

	it.each<[string, unknown, string]>([
		['an empty name', { ...DEFAULT_PROMPT_PACK, name: ' ' }, 'name: name must not be empty'],
		[
			'an empty version',
			{ ...DEFAULT_PROMPT_PACK, version: '' },
			'version: version must not be empty'
		],
		[
			'an empty template',
			{ ...DEFAULT_PROMPT_PACK, templates: { ...templates, lexawn: ' ' } },
			'templates.lexawn: template "lexawn" is empty'
		],
		[
			'a missing template',
			{ ...DEFAULT_PROMPT_PACK, templates: withoutLexawn },
			'template "lexawn" is missing or not a string'
		],
		[
			'an unknown template',
			{ ...DEFAULT_PROMPT_PACK, templates: { ...templates, nope: 'x' } },
			`templates: unknown template(s) nope; the templates are ${TEMPLATE_NAMES.join(', ')}`
		]
	])('%s', (_, pack, was) => {
		expect(promptPackProblems(pack)[0]).toBe(was);
		const [said] = promptPackProblemsSaid(pack);
		says(new UsageError([said]), was);
	});
});

describe('a refused comparison says what its literals said', () => {
	const loaded = (sha256: string, cases: string[]) =>
		({ manifest: { dataset: { sha256 } }, table: { case_numbers: cases } }) as unknown as LoadedRun;
	const sha = (c: string) => c.repeat(64);

	it('runs of different datasets, with the CLI’s words and the page’s', () => {
		const a = loaded(sha('a'), ['1']);
		const b = loaded(sha('b'), ['1']);
		const problem =
			`they were made on different datasets (sha256 ${sha('a').slice(0, 12)}… ` +
			`and ${sha('b').slice(0, 12)}…), so a case number need not be the same case`;
		const bare = (() => {
			try {
				compareLoaded(a, b);
			} catch (e) {
				return e;
			}
		})();
		says(bare, `cannot compare the runs: ${problem}.`);
		const page = (() => {
			try {
				compareLoaded(a, b, {
					what: coded('compare_cannot_these', {}),
					advice: coded('compare_advice_selection', {})
				});
			} catch (e) {
				return e;
			}
		})();
		expect(page).toBeInstanceOf(UsageError);
		const chinese = says(
			page,
			`These two runs cannot be compared: ${problem}. Pick two runs made with the same case selection (the same --limit or cases).`
		);
		expect(chinese).toMatch(/^这两次运行无法比较：它们基于不同的数据集/);
	});

	it('runs of different cases, by run id as the CLI names them', () => {
		const a = loaded(sha('a'), ['1', '2', '3', '4', '5', '6', '7']);
		const b = loaded(sha('a'), ['1', `9${hostile}`]);
		const error = (() => {
			try {
				compareLoaded(a, b, {
					what: coded(
						'compare_cannot',
						{},
						{
							a: [coded('compare_ref', { runId: '"r1"' })],
							b: [coded('compare_ref_model', { runId: '"r2"', model: '"m"' })]
						}
					),
					advice: coded('compare_advice_limit', {})
				});
			} catch (e) {
				return e;
			}
		})();
		const chinese = says(
			error,
			'cannot compare run "r1" with run "r2" of model "m": the runs select different cases (A 7, B 2; ' +
				`only in A: 6 ("2", "3", "4", "5", "6", …); only in B: 1 (${JSON.stringify(`9${hostile}`)})), so they cannot be paired case by case. ` +
				'Compare runs made with the same --limit (or case selection).'
		);
		expect(chinese).toContain('仅 A 有：6 个（"2", "3", "4", "5", "6", …）');
	});
});

/**
 * Sentences the engine, the JSONL reader and the browser store once wrote as English literals,
 * now coded (`src/lib/core/said.ts`): the English made from the catalogue must be, byte for
 * byte, what each literal said. Each `was` below is the literal as it stood in the code, applied
 * to the same values (hostile ones included); the Chinese must be there and differ.
 */
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseCallLog } from '../../../src/lib/core/calls/log';
import { CallLogEntry } from '../../../src/lib/core/calls/schema';
import { readReviewFile } from '../../../src/lib/core/agreement/merge';
import { casesToPrepare } from '../../../src/lib/core/engine/seal';
import { checkRunOptions, type CheckedOptions } from '../../../src/lib/core/engine/run-options';
import { CheckpointError, UsageError, saidOf } from '../../../src/lib/core/errors';
import { visitJsonl } from '../../../src/lib/core/jsonl';
import {
	manifestPath,
	runLabel,
	stageFilePath,
	unportableName,
	unportableText
} from '../../../src/lib/core/layout';
import { escapeControl, escapeForTerminal } from '../../../src/lib/core/text/escape-control';
import { DEFAULT_SETTINGS, SETTING_LIMITS } from '../../../src/lib/core/run-defaults';
import { STAGE_NAMES } from '../../../src/lib/core/engine/types';
import { overwriteGetLocale } from '../../../src/lib/paraglide/runtime';
import { coreText } from '../../../src/lib/view/core-text';
import { z } from 'zod';
import { makeA1, makeManifest } from '../../support/record-factories';
import { MemoryStore } from '../../../src/lib/core/store/memory-store';
import { describeIdentity, orderByIdentity } from '../../../src/lib/core/store/identity';
import { closeTestStores, openTestStore } from '../../support/idb';
import { coded, type CoreText } from '../../../src/lib/core/said';
import { english } from '../../../src/lib/core/voice';
import { lockRun } from '../../../src/lib/adapters/idb-locks';
import { parseRecordRows } from '../../../src/lib/adapters/idb-parse';
import { checkManifest, readManifestText } from '../../../src/lib/core/store/manifest-file';
import { checkHead } from '../../../src/lib/core/store/heads';
import { checkBaseUrl } from '../../../src/lib/core/model/base-url';
import { keyCharacter, keyProblem } from '../../../src/lib/core/model/key-check';
import { checkCrossStage, checkStage } from '../../../src/lib/core/results/completeness';
import {
	DEFAULT_PROMPT_PACK,
	parsePromptPack,
	promptPackProblems,
	TEMPLATE_NAMES
} from '../../../src/lib/core/prompts';
import { makeDataset } from '../../fixtures/engine/cases';

afterEach(() => {
	overwriteGetLocale(() => 'en');
	vi.restoreAllMocks();
	closeTestStores();
});

/** The error `call` throws, its message, and its coded pieces said in Chinese. */
async function caught(call: () => unknown) {
	const error = await (async () => call())().then(
		() => null,
		(e: unknown) => e as Error
	);
	expect(error, 'it throws').toBeInstanceOf(Error);
	const said = saidOf(error);
	expect(said, 'every piece is coded').toBeDefined();
	overwriteGetLocale(() => 'zh-CN');
	const chinese = coreText(error!.message, said);
	overwriteGetLocale(() => 'en');
	expect(chinese).not.toBe(error!.message);
	return { error: error!, chinese };
}

const models = { evaluated: 'm', user: 'u', judge: 'j' };
const base: CheckedOptions = { runId: 'run1', stages: ['gen'], models };
const { min, max } = SETTING_LIMITS.concurrency;
const hostile = 'r\u001b[2J\u202e';

describe('the engine’s option check says what its literals said', () => {
	const reservedWhy = (id: string) => unportableText(unportableName(id)!, escapeControl(id));
	const cases: [string, CheckedOptions, 'in-turn' | 'together', string][] = [
		['no stage', { ...base, stages: [] }, 'in-turn', 'no stage to run'],
		[
			'unknown stage',
			{ ...base, stages: ['gen', 'nope' as never] },
			'in-turn',
			`unknown stage "nope"; the stages are ${STAGE_NAMES.join(', ')}`
		],
		[
			'gen with lca',
			{ ...base, stages: ['gen', 'lca'] },
			'together',
			'gen labels every a1 response it generates; lca only re-judges saved ones. Name one of the two.'
		],
		...[hostile, 'bad/id', ''].map(
			(id) =>
				[
					`run id ${JSON.stringify(id)}`,
					{ ...base, runId: id },
					'in-turn',
					`run id "${escapeControl(id)}" must start with a letter or digit and hold only letters, digits, ".", "_" or "-" (at most 64)`
				] as [string, CheckedOptions, 'in-turn', string]
		),
		...['CON', 'run1.', 'nul.txt'].map(
			(id) =>
				[
					`run id ${id}`,
					{ ...base, runId: id },
					'in-turn',
					`run id: ${reservedWhy(id)}; choose another run id (an output root or a bundle holding it could not be unpacked on Windows)`
				] as [string, CheckedOptions, 'in-turn', string]
		),
		[
			'a setting',
			{ ...base, settings: { ...DEFAULT_SETTINGS, temperature: -1 } as never },
			'in-turn',
			'settings.temperature: '
		],
		[
			'concurrency',
			{ ...base, concurrency: 0 },
			'in-turn',
			`concurrency must be a whole number from ${min} to ${max}, got 0`
		],
		[
			'concurrency or auto',
			{ ...base, stages: undefined, concurrency: 2.5 },
			'together',
			`concurrency must be a whole number from ${min} to ${max} or "auto", got 2.5`
		],
		[
			'auto where no auto',
			{ ...base, concurrency: 'auto' },
			'in-turn',
			`concurrency must be a whole number from ${min} to ${max}, got auto`
		],
		[
			'limit',
			{ ...base, limit: 0.5 },
			'in-turn',
			'limit must be a whole number of at least 1, got 0.5'
		],
		[
			'no model',
			{ ...base, models: { ...models, evaluated: ' ' } },
			'in-turn',
			'no evaluated model given'
		]
	];

	it.each(cases)('%s', async (_, options, mode, was) => {
		const { error } = await caught(() => checkRunOptions(options, mode));
		expect(error).toBeInstanceOf(UsageError);
		if (was.endsWith(': ')) expect(error.message.startsWith(was)).toBe(true);
		else expect(error.message).toBe(was);
	});
});

describe('a dataset that changed while a run started', () => {
	it('says what the literal said', async () => {
		const dataset = makeDataset(2);
		const other = { ...dataset, sha256: 'other' };
		const { error } = await caught(() =>
			casesToPrepare(dataset, async () => other, dataset.cases, false)
		);
		expect(error).toBeInstanceOf(CheckpointError);
		expect(error.message).toBe(
			'the dataset file changed while the run was starting; run the same command again'
		);
	});
});

describe('the JSONL reader’s own limits say what their literals said', () => {
	const label = 'runs/r\u001b/m/calls.jsonl';
	// The old literals quoted the label raw; the CLI prints every line through escapeForTerminal,
	// so what a terminal shows is compared.
	const where = (line: number) => `${label}, line ${line}`;
	const shown = (e: Error) => escapeForTerminal(e.message);

	it('a cut-off call log, with its advice', async () => {
		const { error } = await caught(() => parseCallLog('{"a":1}\n{"b"', label));
		expect(shown(error)).toBe(
			escapeForTerminal(
				`${where(2)}: the last line has no line end, so it was cut off while being written. Remove that line; the call log is not needed to score the run.`
			)
		);
	});

	it('a call-log line too long', async () => {
		const { error } = await caught(() => parseCallLog(`${'x'.repeat(1_000_001)}\n`, label));
		expect(shown(error)).toBe(
			escapeForTerminal(
				`${where(1)}: ${(1_000_001).toLocaleString('en')} characters, more than the ${(1_000_000).toLocaleString('en')} a call-log line may hold.`
			)
		);
	});

	it('a review line too long', async () => {
		const { error } = await caught(() => readReviewFile(`${'x'.repeat(20_001)}\n`, label));
		expect(shown(error)).toBe(
			escapeForTerminal(
				`${where(1)}: 20,001 characters, more than the 20,000 a review line may hold.`
			)
		);
	});

	it('a line that is no call-log entry, by field and whole', async () => {
		for (const value of [{ v: 1 }, [1]]) {
			const issue = CallLogEntry.safeParse(value).error!.issues[0];
			const field = issue.path.length ? `field "${issue.path.join('.')}"` : 'line';
			const { error } = await caught(() => parseCallLog(`${JSON.stringify(value)}\n`, label));
			expect(shown(error)).toBe(
				escapeForTerminal(`${where(1)}: not a call-log entry: ${field}: ${issue.message}`)
			);
		}
	});

	it('a reader’s own words, given as text, said as given', async () => {
		const Line = z.object({ n: z.number() });
		const options = {
			maxLine: { chars: 5, name: 'a short line' },
			entry: 'a number line',
			tornAdvice: 'fetch it again'
		};
		const read = (text: string) => () => visitJsonl(text, Line, 'f.jsonl', () => {}, options);
		expect((await caught(read('{"n":1}'))).error.message).toBe(
			'f.jsonl, line 1: the last line has no line end, so it was cut off while being written. fetch it again'
		);
		expect((await caught(read('{"n":"x"}\n'))).error.message).toBe(
			'f.jsonl, line 1: 9 characters, more than the 5 a short line may hold.'
		);
		expect((await caught(read('[]\n'))).error.message).toMatch(
			/^f\.jsonl, line 1: not a number line: line: .+$/
		);
	});
});

describe('a full browser store says what its literal said', () => {
	const run = { runId: 'run1', modelDir: 'gpt-x-4e02b150' };
	const tail =
		': browser storage is full, so this record was not saved. Nothing was lost: every earlier record is kept. Free space (export and delete old runs), then resume.';
	const quota = () => {
		throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
	};

	it('for a record', async () => {
		const store = await openTestStore();
		vi.spyOn(IDBObjectStore.prototype, 'add').mockImplementationOnce(quota);
		const { error } = await caught(() => store.appendRecord(run, 'a1', makeA1('1')));
		expect(error.message).toBe(`browser storage: AwN_gen/run1/gpt-x-4e02b150/a1.jsonl${tail}`);
	});

	it('for a whole run', async () => {
		const store = await openTestStore();
		vi.spyOn(IDBObjectStore.prototype, 'delete').mockImplementationOnce(quota);
		const { error } = await caught(() => store.deleteRun(run));
		expect(error.message).toBe(`${runLabel(run)}${tail}`);
	});
});

describe('a store refusing a record or a manifest says what its literals said', () => {
	const run = { runId: 'run1', modelDir: 'gpt-x-4e02b150' };
	const identityOf = (c: string, h?: string) =>
		h === undefined ? JSON.stringify([c]) : JSON.stringify([c, h]);

	it('a record saved twice, or not selected, when put in dataset order', async () => {
		const hostile = 'E-1\u001b[2J';
		const twice = await caught(() =>
			orderByIdentity(
				['a', 'a'],
				() => identityOf(hostile, 'complete'),
				[identityOf(hostile, 'complete')],
				'f.jsonl'
			)
		);
		expect(twice.error.message).toBe(
			`f.jsonl: case_number ${escapeControl(hostile)} (complete history) is saved twice; remove one of the two before reordering.`
		);
		const stray = await caught(() =>
			orderByIdentity(['a'], () => identityOf('E-9'), [], 'f.jsonl')
		);
		expect(stray.error.message).toBe(
			'f.jsonl: case_number E-9 is saved but is not among the selected cases, so the file cannot be put in dataset order.'
		);
		expect(describeIdentity(identityOf(hostile, 'x\u0007'))).toBe(
			`case_number ${escapeControl(hostile)} (x\\u0007 history)`
		);
	});

	it('a record saved already, a manifest saved already, a resume without a manifest', async () => {
		const store = new MemoryStore();
		const resumed = await caught(() => store.recordOperational(run, {} as never));
		expect(resumed.error.message).toBe(
			`${manifestPath(run)}: no manifest to record the resume in.`
		);
		await store.createManifest(makeManifest(run));
		const again = await caught(() => store.createManifest(makeManifest(run)));
		expect(again.error.message).toBe(
			`${manifestPath(run)} exists already; a saved manifest is never replaced.`
		);
		await store.appendRecord(run, 'a1', makeA1('7'));
		const saved = await caught(() => store.appendRecord(run, 'a1', makeA1('7')));
		expect(saved.error.message).toBe(
			`${stageFilePath(run, 'a1')}: case_number 7 (complete history) is saved already; a saved record is never overwritten.`
		);
	});
});

/** `said` in English must be `was`, and said in Chinese something else. */
function pinned(said: CoreText, was: string) {
	expect(english(said)).toBe(was);
	overwriteGetLocale(() => 'zh-CN');
	const chinese = coreText(english(said), [said]);
	overwriteGetLocale(() => 'en');
	expect(chinese).not.toBe(was);
	expect(chinese).toMatch(/[\u4e00-\u9fff]/);
}

describe('the browser store’s refusals say what their literals said', () => {
	const run = { runId: 'run1', modelDir: 'gpt-x-4e02b150' };
	const label = (path: string) => `browser storage: ${path}`;

	it('a manifest saved already, a resume without a manifest, a record saved already', async () => {
		const store = await openTestStore();
		const resumed = await caught(() => store.recordOperational(run, {} as never));
		expect(resumed.error.message).toBe(
			`${label(manifestPath(run))}: no manifest to record the resume in.`
		);
		await store.createManifest(makeManifest(run));
		const again = await caught(() => store.createManifest(makeManifest(run)));
		expect(again.error.message).toBe(
			`${label(manifestPath(run))} exists already; a saved manifest is never replaced.`
		);
		await store.appendRecord(run, 'a1', makeA1('7'));
		const saved = await caught(() => store.appendRecord(run, 'a1', makeA1('7')));
		expect(saved.error.message).toBe(
			`${label(stageFilePath(run, 'a1'))}: case_number 7 (complete history) is saved already; a saved record is never overwritten.`
		);
	});

	it('a run written in another tab', async () => {
		const release = await lockRun(null, 'pins-lock', run);
		const { error } = await caught(() => lockRun(null, 'pins-lock', run));
		await release();
		expect(error.message).toBe(
			`${runLabel(run)} is being written in another tab or window of the workbench. Close that ` +
				'tab or wait for its run to finish. Only one writer per run id and model is allowed.'
		);
	});

	it('a stored line that is no JSON', async () => {
		const rows = [{ json: '{"a":' }] as never;
		const { error } = await caught(() => parseRecordRows(run, 'a1', rows));
		const detail = (() => {
			try {
				JSON.parse('{"a":');
			} catch (e) {
				return (e as Error).message;
			}
		})();
		expect(error.message).toBe(
			`${label(stageFilePath(run, 'a1'))}, line 1: not valid JSON (${detail})`
		);
	});

	it('sentences said without a store', () => {
		pinned(
			coded('run_not_in_browser', { run: runLabel(run) }),
			`${runLabel(run)} is not in this browser's storage.`
		);
		pinned(
			coded('manifest_changed_in_resume', { file: label(manifestPath(run)) }),
			`${label(manifestPath(run))}: changed while the resume was being recorded; run again.`
		);
		pinned(
			coded('no_indexeddb', {}),
			'This browser offers no IndexedDB (private mode may disable it), so runs cannot be saved. ' +
				'Use a normal window or the command-line tool.'
		);
		pinned(
			coded('bundle_run_saved_during_import', {}),
			'A run of the bundle was saved in this browser while it was being imported. Nothing was ' +
				'imported; try again.'
		);
	});
});

describe('manifests, heads, the memory store and prompt packs say what their literals said', () => {
	const run = { runId: 'run1', modelDir: 'gpt-x-4e02b150' };
	const label = 'runs/run1/gpt-x-4e02b150/manifest.json';

	it('a manifest that is no manifest, of another run, renamed, or listing a case twice', async () => {
		const good = makeManifest(run);
		const field = await caught(() => checkManifest({ ...good, run_id: 5 }, label));
		expect(field.error.message).toMatch(
			/^runs\/run1\/gpt-x-4e02b150\/manifest\.json: not a valid run manifest: field "run_id": .+$/
		);
		const whole = await caught(() => checkManifest(7, label));
		expect(whole.error.message).toMatch(
			/^.+manifest\.json: not a valid run manifest: manifest: .+$/
		);
		const other = { runId: 'run2', modelDir: 'gpt-y-00000000' };
		const moved = await caught(() => checkManifest(good, label, { run: other }));
		expect(moved.error.message).toBe(
			`${label}: the manifest names run "${good.run_id}" / "${good.model_dir}" but sits in the folder of ` +
				`"${other.runId}" / "${other.modelDir}". Move it back to its own run folder.`
		);
		const renamed = { ...good, model_dir: 'other-00000000' };
		const expectedDir = good.model_dir;
		const dir = await caught(() => checkManifest(renamed, label));
		expect(dir.error.message).toBe(
			`${label}: the folder of evaluated model "${good.models.evaluated}" is "${expectedDir}", not ` +
				`"${renamed.model_dir}"; the run's folders were renamed or its manifest edited.`
		);
		const twice = {
			...good,
			dataset: { ...good.dataset, selected_case_numbers: ['1', 'E\u001b', 'E\u001b'] }
		};
		const dup = await caught(() => checkManifest(twice, label));
		expect(dup.error.message).toBe(
			`${label}: dataset.selected_case_numbers lists case_number ${escapeControl('E\u001b')} twice.`
		);
		const json = await caught(() => readManifestText('{', label));
		expect(json.error.message).toMatch(
			/^.+manifest\.json: not valid JSON \(.+\)\. Restore the manifest of this run\.$/
		);
	});

	it('a saved head without a hash or with a bad record', async () => {
		const where = 'browser storage: a1.jsonl, line 3';
		const hash = await caught(() => checkHead('a1', { record: {} }, where));
		expect(hash.error.message).toBe(`${where}: the saved record head has no valid record_sha256`);
		const sha = 'a'.repeat(64);
		const field = await caught(() =>
			checkHead('a1', { record: { case_number: {} }, record_sha256: sha }, where)
		);
		expect(field.error.message).toMatch(/^browser storage: a1\.jsonl, line 3: field "[^"]+": .+$/);
		const whole = await caught(() => checkHead('a1', { record: 5, record_sha256: sha }, where));
		expect(whole.error.message).toMatch(/^browser storage: a1\.jsonl, line 3: record: .+$/);
	});

	it('a run written by another task of the session', async () => {
		const store = new MemoryStore();
		const release = await store.lock(run);
		const locked = await caught(() => store.lock(run));
		expect(locked.error.message).toBe(
			`${runLabel(run)} is already being written by another task of this session; wait for it to finish.`
		);
		const deleting = await caught(() => store.deleteRun(run));
		expect(deleting.error.message).toBe(
			`${runLabel(run)} is being written; stop that run before deleting it.`
		);
		await release();
	});

	it('a prompt pack that is no JSON, or invalid', async () => {
		const json = await caught(() => parsePromptPack('{'));
		expect(json.error.message).toMatch(/^prompt pack: not valid JSON \(.+\)$/);
		const pack = { name: ' ', version: '1', templates: { nope: 'x' } };
		const problems = promptPackProblems(pack);
		expect(problems.length).toBeGreaterThan(2);
		expect(problems).toContain(
			`templates: unknown template(s) nope; the templates are ${TEMPLATE_NAMES.join(', ')}`
		);
		const invalid = await caught(() => parsePromptPack(JSON.stringify(pack)));
		expect(invalid.error.message).toBe(
			`prompt pack is invalid:\n${problems.map((p) => `  - ${p}`).join('\n')}`
		);
		const bad = {
			...DEFAULT_PROMPT_PACK,
			templates: { ...DEFAULT_PROMPT_PACK.templates, [TEMPLATE_NAMES[0]]: 'x {nope}' }
		};
		const slot = await caught(() => parsePromptPack(JSON.stringify(bad)));
		expect(slot.error.message).toBe(
			`prompt pack is invalid:\n${promptPackProblems(bad)
				.map((p) => `  - ${p}`)
				.join('\n')}`
		);
		expect(slot.chinese).toMatch(/^提示词包无效：\n {2}- /);
	});
});

describe('the model client, completeness and run finding say what their literals said', () => {
	it('the client: no endpoint, a bad base URL, a key that cannot be sent', () => {
		pinned(
			coded('call_no_endpoint', { modelRole: 'judge' }),
			'no endpoint configured for the judge model'
		);
		const checked = checkBaseUrl('ftp://host/v1');
		expect(checked.ok).toBe(false);
		if (checked.ok) return;
		pinned(
			coded('call_base_url', { modelRole: 'user' }, { problem: [checked.said] }),
			`the user model's base URL ${checked.problem}.`
		);
		const bad = keyCharacter('sk-ab\u200bcd')!;
		const url = 'https://api.example.com/v1';
		pinned(
			coded(
				'call_bad_key',
				{ case: '2023-041', modelRole: 'evaluated', model: 'gpt-x', url },
				{ problem: [coded('key_unsendable', { char: bad.char, position: bad.position })] }
			),
			`case 2023-041, evaluated model gpt-x at ${url}: ${keyProblem('sk-ab\u200bcd')}`
		);
	});

	it('a result file with a stray or repeated case', async () => {
		const label = 'runs/r/m/LCA_results.jsonl';
		const stray = await caught(() =>
			checkStage('DCG_results', [{ case_number: 'E\u001b' }], ['1', '2'], label)
		);
		expect(stray.error.message).toBe(
			`${label}, line 1: case_number ${escapeControl('E\u001b')} is not one of the run's 2 selected cases ` +
				'(manifest dataset.selected_case_numbers). The file belongs to another dataset or selection: ' +
				'move it out of the output root or restore the matching manifest.'
		);
		const rows = [
			{ case_number: 1, history_type: 'complete' },
			{ case_number: '1', history_type: 'complete' }
		];
		const twice = await caught(() => checkStage('LCA_results', rows, ['1'], label));
		expect(twice.error.message).toBe(
			`${label}, line 2: case_number 1 (complete history) already has a record on line 1. ` +
				'Each case must be scored once: remove one of the two lines.'
		);
		const once = await caught(() => checkStage('DCG_results', [rows[0], rows[1]], ['1'], label));
		expect(once.error.message).toBe(
			`${label}, line 2: case_number 1 already has a record on line 1. ` +
				'Each case must be scored once: remove one of the two lines.'
		);
	});

	it('result files of different datasets', async () => {
		const label = (file: string) => `runs/r/m/${file}.jsonl`;
		const causes = {
			DCG_results: [{ case_number: '1', cause_of_action: 'A' }],
			LCA_results: [{ case_number: '1', cause_of_action: 'B\u001b' }]
		} as never;
		const cause = await caught(() => checkCrossStage(causes, label));
		expect(cause.error.message).toMatch(
			/^runs\/r\/m\/\w+\.jsonl, line 1: case_number 1 has cause_of_action "[^"]+", but "[^"]+" at runs\/r\/m\/\w+\.jsonl, line 1\. The run's files come from different datasets; move the stray file out of the output root\.$/
		);
		const ljp = (claims: string[]) => ({
			case_number: '1',
			cause_of_action: 'A',
			claims,
			gold: {}
		});
		const claims = {
			LJP_direct: [ljp(['x'])],
			LJP_gold: [ljp(['y'])]
		} as never;
		const claim = await caught(() => checkCrossStage(claims, label));
		expect(claim.error.message).toMatch(
			/^runs\/r\/m\/\w+\.jsonl, line 1: case_number 1 has other claims or gold verdicts than at runs\/r\/m\/\w+\.jsonl, line 1\. All LJP setups of a run must score the same claims; the files come from different datasets\.$/
		);
	});

	it('a run to compare that is not there or ambiguous', () => {
		const ref = coded('compare_ref_model', { runId: '"r1"', model: '"m"' });
		pinned(
			coded('compare_no_run', { side: 'A', ids: '"a", "b"' }, { ref: [ref] }),
			'run A: no run "r1" of model "m" (a runs/<run-id>/<model>/manifest.json). Run ids there: "a", "b".'
		);
		pinned(
			coded(
				'compare_no_runs_at_all',
				{ side: 'B' },
				{ ref: [coded('compare_ref', { runId: '"r1"' })] }
			),
			'run B: no run "r1" (a runs/<run-id>/<model>/manifest.json). There are no runs at all.'
		);
		pinned(
			coded('compare_ambiguous', { side: 'A', count: 2, models: '"m1", "m2"' }, { ref: [ref] }),
			'run A: run "r1" of model "m" is ambiguous: it names 2 runs (models "m1", "m2"). ' +
				'Pick one with --model (both runs) or --model-a / --model-b.'
		);
	});
});

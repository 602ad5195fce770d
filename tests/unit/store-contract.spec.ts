/** The `CheckpointStore` contract, held by every implementation. */
import { describe, expect } from 'vitest';
import { CheckpointError, RunLockedError } from '../../src/lib/core/errors';
import { sha256Canonical } from '../../src/lib/core/hash';
import type { RunKey } from '../../src/lib/core/layout';
import type { AnyRecord, Manifest, StageFile } from '../../src/lib/core/records';
import { recordIdentity } from '../../src/lib/core/store/identity';
import { openRun } from '../../src/lib/core/store/resume';
import { withHeldLock } from '../../src/lib/core/store/held-lock';
import type { CheckpointStore } from '../../src/lib/core/store/types';
import { callLogLine } from '../../src/lib/core/calls/log';
import { isCallLog, type CallLog } from '../../src/lib/core/calls/types';
import {
	fakeSha,
	makeA1,
	makeDcg,
	makeInteraction,
	makeLca,
	makeManifest,
	sampleHistory
} from '../support/record-factories';
import { testAllStorage } from './store-contract';

const run = { runId: 'run1', modelDir: 'gpt-x-4e02b150' };
const otherModel = { runId: 'run1', modelDir: 'qwen-67f2d225' };
const otherRun = { runId: 'run2', modelDir: 'gpt-x-4e02b150' };

/** The manifest of one of the runs above: its evaluated model is the one its folder names. */
function manifestOf(key: RunKey): Manifest {
	const m = makeManifest(key);
	return key.modelDir === otherModel.modelDir
		? { ...m, models: { ...m.models, evaluated: 'qwen' } }
		: m;
}

/** One valid record for each stage file, so every schema goes through every store. */
const ONE_OF_EACH: [StageFile, AnyRecord][] = [
	['a1', makeA1('1', 'underspecified', { extra_field: { kept: ['是', 1] } })],
	['interaction', makeInteraction('1')],
	[
		'force_ask',
		{
			case_number: '1',
			history: sampleHistory('1'),
			rounds: [
				{ round: 1, question: '借款是否有担保？', user_reply: '没有担保。' },
				{ round: 2, question: '是否催收过？' }
			],
			input_sha256: fakeSha('fa1')
		}
	],
	[
		'a1_direct',
		{
			case_number: '1',
			history: sampleHistory('1'),
			response: '支持。',
			input_sha256: fakeSha('d1')
		}
	],
	[
		'a1_force_judge',
		{
			case_number: '1',
			history: sampleHistory('1'),
			response: '驳回。',
			input_sha256: fakeSha('g1')
		}
	],
	['LCA_results', makeLca('1')],
	['DCG_results', makeDcg('1')],
	...(['LJP_direct', 'LJP_gold', 'LJP_interaction'] as const).map(
		(file): [StageFile, AnyRecord] => [
			file,
			{
				case_number: '1',
				cause_of_action: '民间借贷纠纷',
				claims: ['判令被告归还借款五万元', '判令被告支付利息'],
				predicted: ['支持', '部分支持'],
				gold: ['支持', '驳回'],
				input_sha256: fakeSha(file)
			}
		]
	)
];

/** A head as the contract defines it: the record less its histories, and the SHA-256 of all of it. */
async function headOf(record: AnyRecord) {
	const rest = Object.entries(record).filter(([k]) => k !== 'history' && k !== 'initial_history');
	return { record: Object.fromEntries(rest), record_sha256: await sha256Canonical(record) };
}

describe('CheckpointStore contract', () => {
	testAllStorage('a manifest is created once, read back whole, and never replaced', async (h) => {
		expect(await h.store.readManifest(run)).toBeNull();
		const manifest = makeManifest(run);
		await h.store.createManifest(manifest);
		expect(await h.store.readManifest(run)).toEqual(manifest);

		const second = makeManifest(run, { created_at: '2030-01-01T00:00:00.000Z' });
		await expect(h.store.createManifest(second)).rejects.toThrow(CheckpointError);
		await expect(h.store.createManifest(second)).rejects.toThrow(/manifest\.json exists already/);
		expect(await (await h.reopen()).readManifest(run)).toEqual(manifest);
	});

	testAllStorage(
		'recordOperational appends to the history and changes nothing else of the manifest',
		async (h) => {
			const first = { at: '2025-01-01T00:00:00.000Z', timeout_s: 120, retries: 3, concurrency: 4 };
			const manifest = {
				...makeManifest(run),
				operational_history: [first],
				written_by: { tool: 'another harness' }
			} as Manifest;
			await h.store.createManifest(manifest);
			await h.store.appendRecord(run, 'a1', makeA1('1'));
			const later = { at: '2025-02-01T00:00:00.000Z', timeout_s: 600, retries: 12, concurrency: 1 };
			await h.store.recordOperational(run, later);
			const expected = { ...manifest, operational_history: [first, later] };
			expect(await h.store.readManifest(run)).toEqual(expected);
			expect(await (await h.reopen()).readManifest(run)).toEqual(expected);
			expect(await h.store.readRecords(run, 'a1')).toEqual([makeA1('1')]);
		}
	);

	testAllStorage(
		'recordOperational refuses a run without a manifest, and a bad entry',
		async (h) => {
			const entry = { at: '2025-02-01T00:00:00.000Z', timeout_s: 600, retries: 12, concurrency: 1 };
			await expect(h.store.recordOperational(run, entry)).rejects.toThrow(
				/manifest\.json: no manifest to record the resume in/
			);
			expect(await h.store.readManifest(run)).toBeNull();
			await h.store.createManifest(makeManifest(run));
			await expect(h.store.recordOperational(run, { ...entry, retries: 1000 })).rejects.toThrow(
				/not a valid run manifest: field "operational_history\.0\.retries"/
			);
			expect(await h.store.readManifest(run)).toEqual(makeManifest(run));
		}
	);

	testAllStorage(
		'a resume may change timeout, retries and concurrency (recorded); temperature still refuses',
		async (h) => {
			const at = (day: number) => `2025-01-0${day}T00:00:00.000Z`;
			const opened = (day: number, edit: (m: Manifest) => void = () => {}) => {
				const m = makeManifest(run, { created_at: at(day) });
				m.operational_history = [{ at: at(day), timeout_s: 120, retries: 3, concurrency: 4 }];
				edit(m);
				return m;
			};
			const first = opened(1);
			await openRun(h.store, first);
			const patient = opened(2, (m) => {
				Object.assign(m.settings, { timeout_s: 900, retries: 20 });
				m.operational_history = [{ at: at(2), timeout_s: 900, retries: 20, concurrency: 1 }];
			});
			const resumed = await openRun(h.store, patient);
			expect(resumed.created).toBe(false);
			const saved = await (await h.reopen()).readManifest(run);
			expect(saved?.settings).toEqual(first.settings);
			expect(saved?.operational_history).toEqual([
				...first.operational_history!,
				...patient.operational_history!
			]);
			const hotter = opened(3, (m) => (m.settings.temperature = 0.9));
			await expect(openRun(h.store, hotter)).rejects.toThrow(
				/settings\.temperature: saved 0\.7, now 0\.9/
			);
			expect(await h.store.readManifest(run)).toEqual(saved);
		}
	);

	testAllStorage('an invalid manifest is refused before anything is written', async (h) => {
		const bad = { ...makeManifest(run), code_sha256: 'not-a-hash' };
		await expect(h.store.createManifest(bad)).rejects.toThrow(/code_sha256/);
		expect(await h.store.readManifest(run)).toBeNull();
	});

	testAllStorage('records read back in the order saved, every field intact', async (h) => {
		// Completion order, not dataset order: concurrent cases finish in any order.
		const saved = [
			makeA1('3', 'underspecified'),
			makeA1('1', 'complete', { reasoning: '<思考>先看借条</思考>', usage: { tokens: 12 } }),
			makeA1('3', 'complete'),
			makeA1('2', 'underspecified', {
				history: [{ role: 'user', content: '  前后空格 \t 保留  ' }]
			}),
			makeA1('1', 'underspecified')
		];
		for (const record of saved) await h.store.appendRecord(run, 'a1', record);
		expect(await h.store.readRecords(run, 'a1')).toEqual(saved);
		expect(await (await h.reopen()).readRecords(run, 'a1')).toEqual(saved);
	});

	testAllStorage('every stage file stores its own record type', async (h) => {
		for (const [file, record] of ONE_OF_EACH) await h.store.appendRecord(run, file, record);
		for (const [file, record] of ONE_OF_EACH) {
			expect(await h.store.readRecords(run, file)).toEqual([record]);
		}
	});

	testAllStorage('a record that breaks its schema is refused, naming the case', async (h) => {
		const bad = { ...makeLca('7'), label: 'maybe' };
		await expect(h.store.appendRecord(run, 'LCA_results', bad)).rejects.toThrow(
			/case_number 7.*field "label"/
		);
		expect(await h.store.readRecords(run, 'LCA_results')).toEqual([]);
	});

	testAllStorage('a second record for the same case is refused; the first stays', async (h) => {
		const first = makeA1('5', 'complete');
		await h.store.appendRecord(run, 'a1', first);
		// The other history of the same case is a different record.
		await h.store.appendRecord(run, 'a1', makeA1('5', 'underspecified'));
		const again = makeA1('5', 'complete', { response: '另一个回答' });
		await expect(h.store.appendRecord(run, 'a1', again)).rejects.toThrow(
			/case_number 5 \(complete history\) is saved already/
		);
		await h.store.appendRecord(run, 'interaction', makeInteraction('5'));
		await expect(h.store.appendRecord(run, 'interaction', makeInteraction('5'))).rejects.toThrow(
			CheckpointError
		);
		const reread = await (await h.reopen()).readRecords(run, 'a1');
		expect(reread).toEqual([first, makeA1('5', 'underspecified')]);
		expect(await h.store.readRecords(run, 'interaction')).toHaveLength(1);
	});

	testAllStorage(
		'concurrent appends are all kept; concurrent duplicates keep exactly one',
		async (h) => {
			const records = Array.from({ length: 20 }, (_, i) => makeDcg(String(i)));
			await Promise.all(records.map((r) => h.store.appendRecord(run, 'DCG_results', r)));
			const saved = await h.store.readRecords(run, 'DCG_results');
			expect(saved.map((r) => r.case_number).sort()).toEqual(
				records.map((r) => r.case_number).sort()
			);

			const outcomes = await Promise.allSettled(
				[1, 2, 3].map(() => h.store.appendRecord(run, 'LCA_results', makeLca('9')))
			);
			expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
			expect(await h.store.readRecords(run, 'LCA_results')).toHaveLength(1);
		}
	);

	testAllStorage('runs and models are isolated from each other', async (h) => {
		await h.store.appendRecord(run, 'a1', makeA1('1'));
		await h.store.appendRecord(otherModel, 'a1', makeA1('2'));
		await h.store.appendRecord(otherRun, 'a1', makeA1('1'));
		expect(await h.store.readRecords(run, 'a1')).toEqual([makeA1('1')]);
		expect(await h.store.readRecords(otherModel, 'a1')).toEqual([makeA1('2')]);
		expect(await h.store.readRecords(otherRun, 'a1')).toEqual([makeA1('1')]);
		expect(await h.store.readRecords(run, 'LCA_results')).toEqual([]);
	});

	testAllStorage('a line that is not JSON is an error naming file and line', async (h) => {
		const good = JSON.stringify(makeDcg('1'));
		await h.writeRaw(run, 'DCG_results', `${good}\n{"case_number": "2", oops\n`);
		const read = h.store.readRecords(run, 'DCG_results');
		await expect(read).rejects.toThrow(CheckpointError);
		await expect(h.store.readRecords(run, 'DCG_results')).rejects.toThrow(
			/eval_results[\\/]run1[\\/]gpt-x-4e02b150[\\/]DCG_results\.jsonl, line 2: not valid JSON/
		);
	});

	testAllStorage(
		'a line that breaks its schema is an error naming file, line and field',
		async (h) => {
			const lines = [makeDcg('1'), makeDcg('2', { round_labels: ['是'] as never }), makeDcg('3')];
			await h.writeRaw(run, 'DCG_results', lines.map((l) => `${JSON.stringify(l)}\n`).join(''));
			await expect(h.store.readRecords(run, 'DCG_results')).rejects.toThrow(
				/DCG_results\.jsonl, line 2: field "round_labels/
			);
		}
	);

	testAllStorage(
		'a cut-off last line is reported, and nothing is appended after it',
		async (h) => {
			const text = `${JSON.stringify(makeDcg('1'))}\n${JSON.stringify(makeDcg('2')).slice(0, 30)}`;
			await h.writeRaw(run, 'DCG_results', text);
			await expect(h.store.readRecords(run, 'DCG_results')).rejects.toThrow(
				/DCG_results\.jsonl, line 2: the last line has no line end/
			);
			await expect(h.store.appendRecord(run, 'DCG_results', makeDcg('3'))).rejects.toThrow(
				/line 2/
			);
			const reopened = await h.reopen();
			await expect(reopened.readRecords(run, 'DCG_results')).rejects.toThrow(/line 2/);
		},
		['memory', 'filesystem']
	);

	testAllStorage('one writer per run: a second lock is refused until released', async (h) => {
		const release = await h.store.lock(run);
		const other = await h.reopen();
		await expect(other.lock(run)).rejects.toThrow(RunLockedError);
		// Other runs and models are not blocked.
		const releaseOther = await other.lock(otherModel);
		await releaseOther();
		await release();
		await release(); // releasing twice is harmless
		const again = await other.lock(run);
		await expect(h.store.lock(run)).rejects.toThrow(RunLockedError);
		await again();
	});

	testAllStorage('listRuns lists every run with a manifest, sorted', async (h) => {
		expect(await h.store.listRuns()).toEqual([]);
		for (const key of [otherRun, otherModel, run]) await h.store.createManifest(manifestOf(key));
		// Records without a manifest are not a run.
		await h.store.appendRecord({ runId: 'orphan', modelDir: 'm-00000000' }, 'a1', makeA1('1'));
		expect(await h.store.listRuns()).toEqual([run, otherModel, otherRun]);
	});

	testAllStorage('deleteRun removes one run whole and nothing else', async (h) => {
		for (const key of [run, otherModel]) {
			await h.store.createManifest(manifestOf(key));
			await h.store.appendRecord(key, 'a1', makeA1('1'));
			await h.store.appendRecord(key, 'DCG_results', makeDcg('1'));
		}
		await h.store.deleteRun(run);
		expect(await h.store.readManifest(run)).toBeNull();
		expect(await h.store.readRecords(run, 'a1')).toEqual([]);
		expect(await h.store.readRecords(run, 'DCG_results')).toEqual([]);
		expect(await h.store.listRuns()).toEqual([otherModel]);
		expect(await h.store.readRecords(otherModel, 'a1')).toEqual([makeA1('1')]);
		// A deleted run can start over under the same id.
		await h.store.createManifest(makeManifest(run));
		await h.store.appendRecord(run, 'a1', makeA1('1'));
		expect(await h.store.readRecords(run, 'a1')).toEqual([makeA1('1')]);
	});

	testAllStorage('deleteRun is refused while a writer holds the run', async (h) => {
		await h.store.createManifest(makeManifest(run));
		const release = await h.store.lock(run);
		await expect((await h.reopen()).deleteRun(run)).rejects.toThrow(RunLockedError);
		expect(await h.store.readManifest(run)).not.toBeNull();
		await release();
		await h.store.deleteRun(run);
		expect(await h.store.readManifest(run)).toBeNull();
	});

	testAllStorage('finalizeStageFile puts records in dataset order, unchanged', async (h) => {
		const datasetOrder = ['1', '2', '3'].flatMap((c) => [
			makeA1(c, 'complete', { note: `第${c}号` }),
			makeA1(c, 'underspecified')
		]);
		const completion = [3, 0, 5, 1, 4, 2].map((i) => datasetOrder[i]);
		for (const record of completion) await h.store.appendRecord(run, 'a1', record);
		const order = datasetOrder.map((r) => recordIdentity('a1', r));
		await h.store.finalizeStageFile!(run, 'a1', order);
		expect(await h.store.readRecords(run, 'a1')).toEqual(datasetOrder);
		// Still one record per identity: appending a saved case is still refused.
		await expect(h.store.appendRecord(run, 'a1', datasetOrder[0])).rejects.toThrow(CheckpointError);
	});

	testAllStorage(
		'finalizeStageFile refuses a record outside the order and changes nothing',
		async (h) => {
			for (const c of ['2', '1', '9']) await h.store.appendRecord(run, 'DCG_results', makeDcg(c));
			const order = ['1', '2'].map((c) => recordIdentity('DCG_results', { case_number: c }));
			await expect(h.store.finalizeStageFile!(run, 'DCG_results', order)).rejects.toThrow(
				/case_number 9 is saved but is not among the selected cases/
			);
			const saved = await h.store.readRecords(run, 'DCG_results');
			expect(saved.map((r) => r.case_number)).toEqual(['2', '1', '9']);
		}
	);

	testAllStorage(
		'readHeads gives each record less its histories, with the SHA-256 of the whole record',
		async (h) => {
			await h.store.createManifest(makeManifest(run));
			for (const [file, record] of ONE_OF_EACH) await h.store.appendRecord(run, file, record);
			for (const store of [h.store, await h.reopen()]) {
				for (const [file, record] of ONE_OF_EACH) {
					expect(await store.readHeads!(run, file)).toEqual([await headOf(record)]);
				}
			}
			// The histories really are left out: a resume does not read them back.
			const [a1] = await h.store.readHeads!(run, 'a1');
			expect(Object.keys(a1.record)).not.toContain('history');
			const [interaction] = await h.store.readHeads!(run, 'interaction');
			expect(Object.keys(interaction.record)).not.toContain('initial_history');
		}
	);

	testAllStorage('readHeads follows appends, finalizeStageFile and deleteRun', async (h) => {
		await h.store.createManifest(makeManifest(run));
		const [a, b, c] = [makeA1('2', 'underspecified'), makeA1('1'), makeA1('1', 'underspecified')];
		const heads = async (records: AnyRecord[]) => Promise.all(records.map(headOf));
		await h.store.appendRecord(run, 'a1', a);
		await h.store.appendRecord(run, 'a1', b);
		expect(await h.store.readHeads!(run, 'a1')).toEqual(await heads([a, b]));
		await h.store.appendRecord(run, 'a1', c);
		expect(await h.store.readHeads!(run, 'a1')).toEqual(await heads([a, b, c]));
		await h.store.finalizeStageFile!(
			run,
			'a1',
			[b, c, a].map((r) => recordIdentity('a1', r))
		);
		expect(await h.store.readHeads!(run, 'a1')).toEqual(await heads([b, c, a]));
		expect(await (await h.reopen()).readHeads!(run, 'a1')).toEqual(await heads([b, c, a]));

		await h.store.deleteRun(run);
		expect(await h.store.readHeads!(run, 'a1')).toEqual([]);
		// A run started again under the same id sees only its own records.
		await h.store.createManifest(makeManifest(run));
		await h.store.appendRecord(run, 'a1', c);
		expect(await h.store.readHeads!(run, 'a1')).toEqual(await heads([c]));
	});

	testAllStorage(
		'readHeads reports a malformed line as readRecords does, naming file and line',
		async (h) => {
			await h.store.createManifest(makeManifest(run));
			const good = JSON.stringify(makeDcg('1'));
			await h.writeRaw(run, 'DCG_results', `${good}\n{"case_number": "2", oops\n`);
			await expect(h.store.readHeads!(run, 'DCG_results')).rejects.toThrow(
				/DCG_results\.jsonl, line 2: not valid JSON/
			);
			const broken = makeDcg('2', { round_labels: ['是'] as never });
			await h.writeRaw(run, 'DCG_results', `${good}\n${JSON.stringify(broken)}\n`);
			await expect(h.store.readHeads!(run, 'DCG_results')).rejects.toThrow(
				/DCG_results\.jsonl, line 2: field "round_labels/
			);
		}
	);

	testAllStorage('the call log reads back every line in written order, per run', async (h) => {
		const line = (seq: number, runId: string) =>
			callLogLine({
				session: 's1',
				seq,
				started_at: '2026-01-01T00:00:00.000Z',
				role: 'evaluated',
				stage: 'gen',
				task: 'lexawn',
				case_number: '1',
				model: 'gpt-x',
				prompt: `prompt ${runId} ${seq}`,
				response: '答',
				reasoning: null,
				finish_reason: 'stop',
				usage: null,
				latency_ms: 1,
				retries: 0,
				attempts: [{ attempt: 1, outcome: 'ok', latency_ms: 1 }],
				error: null
			});
		expect(isCallLog(h.store)).toBe(true);
		const log = h.store as CheckpointStore & CallLog;
		await log.createManifest(makeManifest(run));
		await log.createManifest(makeManifest(otherRun));
		for (const seq of [0, 1, 2]) await log.appendCall(run, line(seq, run.runId));
		await log.appendCall(otherRun, line(0, otherRun.runId));
		const read = await log.readCalls(run);
		expect(read.map((c) => c.prompt)).toEqual(['prompt run1 0', 'prompt run1 1', 'prompt run1 2']);
		expect((await log.readCalls(otherRun)).map((c) => c.prompt)).toEqual(['prompt run2 0']);
	});
});

describe('the held-lock view (withHeldLock)', () => {
	testAllStorage(
		'gives its holder the held run at once and every other run as the store',
		async (h) => {
			const release = await h.store.lock(run);
			const view = withHeldLock(h.store, run);
			// The holder's engine takes the lock again, and its release leaves the lock held.
			await (
				await view.lock(run)
			)();
			await expect((await h.reopen()).lock(run)).rejects.toThrow(RunLockedError);
			await expect(view.deleteRun(run)).rejects.toThrow(RunLockedError);
			// Other runs are locked as the store locks them.
			const other = await view.lock(otherRun);
			await expect((await h.reopen()).lock(otherRun)).rejects.toThrow(RunLockedError);
			await other();
			await release();
			await (
				await (await h.reopen()).lock(run)
			)();
		}
	);
});

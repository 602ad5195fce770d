/**
 * computeReport over hand-built run records: the figures of each stage, groups, classes, and the
 * errors that name their file. One file because every test reads the same three cases in two
 * classes (`CASES`) and their hand-computed figures.
 */
import { describe, expect, it } from 'vitest';
import { english } from '../voice';
import type { Verdict } from '../dataset/types';
import { CheckpointError } from '../errors';
import { manifestPath, modelDirName, stageFilePath, type RunKey } from '../layout';
import { DEFAULT_SETTINGS, type Manifest, type StageFile } from '../records';
import { formatReport } from './format-report';
import { computeReport } from './report';
import { memorySource } from './source';

const hex = (c: string) => c.repeat(64);
type L = 'clarification' | 'judgment';

/** Three cases in two classes; the third cause is not in the map. */
const CASES = [
	{ n: 'A-1', cause: '民间借贷纠纷', gold: ['支持', '驳回'] as Verdict[] },
	{ n: 'A-2', cause: '离婚纠纷', gold: ['部分支持'] as Verdict[] },
	{ n: 'A-3', cause: '劳动争议', gold: ['驳回'] as Verdict[] }
];
/** 侵权责任纠纷 has no case here: a class without cases must not appear. */
const CATEGORIES = {
	民间借贷纠纷: '合同纠纷',
	离婚纠纷: '婚姻家庭纠纷',
	机动车交通事故责任纠纷: '侵权责任纠纷'
};

interface RunSpec {
	runId: string;
	model?: string;
	temperature?: number;
	/** Per case [complete, underspecified]. @default every case asked only when underspecified */
	lca?: [L, L][];
	/** Per case: predicted verdicts for LJP_direct. @default gold */
	direct?: Verdict[][];
	/** Cases left out of a file, to make it incomplete. */
	omit?: Partial<Record<StageFile, string[]>>;
	/** Files not written at all. */
	without?: StageFile[];
}

async function runFiles(spec: RunSpec): Promise<Record<string, string>> {
	const model = spec.model ?? 'gpt-x';
	const run: RunKey = { runId: spec.runId, modelDir: await modelDirName(model) };
	const manifest: Manifest = {
		schema_version: 1,
		tool: { name: 'lexpilot-workbench', version: '0.1.0' },
		run_id: run.runId,
		model_dir: run.modelDir,
		created_at: '2025-03-01T08:00:00.000Z',
		dataset: {
			sha256: hex('a'),
			n_cases: CASES.length,
			selected_case_numbers: CASES.map((c) => c.n),
			history_fields: {
				complete: 'complete_consultation',
				underspecified: 'underspecified_consultation'
			}
		},
		code_sha256: hex('b'),
		prompts_sha256: hex('c'),
		models: { evaluated: model, user: 'DeepSeek-V4.1-Flash', judge: 'DeepSeek-R1' },
		endpoints: {
			evaluated: 'https://a.example/v1',
			user: 'https://a.example/v1',
			judge: 'https://a.example/v1'
		},
		settings: { ...DEFAULT_SETTINGS, temperature: spec.temperature ?? 0.7 },
		categories: CATEGORIES,
		simulated: false
	};
	const ljp = (predicted: (i: number) => Verdict[]) =>
		CASES.map((c, i) => ({
			case_number: c.n,
			cause_of_action: c.cause,
			claims: c.gold.map((_, k) => `诉讼请求${k + 1}`),
			predicted: predicted(i),
			gold: c.gold,
			input_sha256: hex('d')
		}));
	const records: Record<string, object[]> = {
		LCA_results: CASES.flatMap((c, i) =>
			(['complete', 'underspecified'] as const).map((history_type, h) => ({
				case_number: c.n,
				cause_of_action: c.cause,
				history_type,
				response: '请问借款时是否有书面借条？',
				label: spec.lca?.[i][h] ?? (h === 1 ? 'clarification' : 'judgment'),
				input_sha256: hex('e')
			}))
		),
		DCG_results: CASES.map((c) => ({
			case_number: c.n,
			cause_of_action: c.cause,
			round_labels: ['否', '是'],
			success: true,
			input_sha256: hex('f')
		})),
		LJP_direct: ljp((i) => spec.direct?.[i] ?? CASES[i].gold),
		LJP_gold: ljp((i) => CASES[i].gold),
		LJP_interaction: ljp((i) => CASES[i].gold)
	};
	const files: Record<string, string> = { [manifestPath(run)]: JSON.stringify(manifest) };
	for (const [file, list] of Object.entries(records) as [StageFile, { case_number: string }[]][]) {
		if (spec.without?.includes(file)) continue;
		const kept = list.filter((r) => !spec.omit?.[file]?.includes(r.case_number));
		files[stageFilePath(run, file)] = kept.map((r) => `${JSON.stringify(r)}\n`).join('');
	}
	return files;
}

async function root(...specs: RunSpec[]): Promise<Record<string, string>> {
	return Object.assign({}, ...(await Promise.all(specs.map(runFiles))));
}

describe('computeReport', () => {
	it('scores a complete run overall and per class', async () => {
		// A-1 asks on the complete history too: TP = 3, FN = 0, FP = 1, TN = 2.
		// F1_U = 6/7, F1_C = 4/5, Macro = (6/7 + 4/5)/2 = 29/35.
		const files = await root({
			runId: 'run1',
			lca: [
				['clarification', 'clarification'],
				['judgment', 'clarification'],
				['judgment', 'clarification']
			]
		});
		const report = await computeReport(memorySource(files));
		expect(report.runs).toHaveLength(1);
		const [run] = report.runs;
		expect(run).toMatchObject({
			run_id: 'run1',
			model: 'gpt-x',
			model_dir: await modelDirName('gpt-x'),
			partial: false
		});
		expect(run.metrics.lca!.macro_f1).toBeCloseTo(29 / 35, 12);
		expect(run.metrics.dcg).toEqual({ success_rate: 1, round1_rate: 0, round2_rate: 1, n: 3 });
		expect(run.metrics.ljp.gold).toEqual({ qwk: 1, accuracy: 1, n_claims: 4 });
		expect(Object.keys(run.by_class)).toEqual(['合同纠纷', '婚姻家庭纠纷', '未分类']);
		// 合同纠纷 holds A-1 only: FP = 1, TP = 1 → F1_C = 0/(0+1+0) = 0, Acc_C = 0.
		expect(run.by_class['合同纠纷'].lca).toMatchObject({ f1_c: 0, acc_c: 0, acc_u: 1, n: 2 });
		// 未分类 holds one claim, 驳回 → 驳回: QWK undefined, accuracy 1.
		expect(run.by_class['未分类'].ljp.direct).toEqual({ qwk: null, accuracy: 1, n_claims: 1 });
		expect(run.notes.map((n) => english(n))).toContain(
			'cause "劳动争议" is not in the run\'s category map, counted as 未分类'
		);
	});

	it('reports an incomplete or missing stage as null with the reason, the rest scored', async () => {
		const files = await root({
			runId: 'run1',
			omit: { LJP_gold: ['A-2'] },
			without: ['DCG_results']
		});
		const [run] = (await computeReport(memorySource(files))).runs;
		expect(run.metrics.ljp.gold).toBeNull();
		expect(run.metrics.dcg).toBeNull();
		expect(run.by_class['合同纠纷'].ljp.gold).toBeNull();
		expect(run.metrics.ljp.direct).not.toBeNull();
		expect(run.completeness.LJP_gold).toEqual({
			status: 'incomplete',
			have: 2,
			expected: 3,
			unit: 'cases'
		});
		expect(run.notes.map((n) => english(n))).toContain(
			'LJP_gold: 2 of 3 cases, not scored until complete'
		);
		expect(run.notes.map((n) => english(n))).toContain('DCG_results: no file yet');
		expect(run.partial).toBe(false);
	});

	it('with partial, scores an incomplete stage over the saved records and marks it partial', async () => {
		const files = await root({ runId: 'run1', omit: { LJP_gold: ['A-2'], LCA_results: ['A-3'] } });
		const report = await computeReport(memorySource(files), { partial: true });
		const [run] = report.runs;
		expect(report.partial).toBe(true);
		expect(run.partial).toBe(true);
		// remain: 2 + 1 claims.
		expect(run.metrics.ljp.gold).toEqual({ qwk: 1, accuracy: 1, n_claims: 3 });
		expect(run.metrics.lca!.n).toBe(4);
		// 未分类 has no LCA record yet: an empty class, every rate undefined.
		expect(run.by_class['未分类'].lca).toEqual({
			macro_f1: null,
			f1_u: null,
			f1_c: null,
			acc_c: null,
			acc_u: null,
			n: 0
		});
		expect(run.notes.map((n) => english(n))).toContain(
			'LJP_gold: 2 of 3 cases, partial figures over the saved ones'
		);
		expect(run.notes.map((n) => english(n))).toContain(
			'LCA_results: 4 of 6 records (2 per case), partial figures over the saved ones'
		);
		expect(report.groups[0].partial).toBe(true);
	});

	it('never splits a group on timeout, retries or concurrency (PROTOCOL.md §5: operational)', async () => {
		const files = await root({ runId: 'run1' }, { runId: 'run2' });
		const path = manifestPath({ runId: 'run2', modelDir: await modelDirName('gpt-x') });
		const resumed = JSON.parse(files[path]) as Manifest;
		resumed.settings = { ...resumed.settings, timeout_s: 30, retries: 0 };
		resumed.operational_history = [
			{ at: resumed.created_at, timeout_s: 30, retries: 0, concurrency: 16 },
			{ at: '2025-03-02T08:00:00.000Z', timeout_s: 600, retries: 20, concurrency: 1 }
		];
		files[path] = JSON.stringify(resumed);
		const { groups } = await computeReport(memorySource(files));
		expect(groups.map((g) => [g.model, g.run_ids, g.n])).toEqual([['gpt-x', ['run1', 'run2'], 2]]);
	});

	it('groups comparable runs only, with mean and sample SD', async () => {
		const wrongOnA1: Verdict[][] = [['驳回', '驳回'], ['部分支持'], ['驳回']];
		const files = await root(
			{ runId: 'run1' },
			{ runId: 'run2', direct: wrongOnA1 },
			{ runId: 'run3', temperature: 0.2 },
			{ runId: 'run1', model: 'gpt-y' }
		);
		const { runs, groups } = await computeReport(memorySource(files));
		expect(runs.map((r) => `${r.run_id}/${r.model}`)).toEqual([
			'run1/gpt-x',
			'run1/gpt-y',
			'run2/gpt-x',
			'run3/gpt-x'
		]);
		expect(groups.map((g) => [g.model, g.run_ids, g.n])).toEqual([
			['gpt-x', ['run1', 'run2'], 2],
			['gpt-x', ['run3'], 1],
			['gpt-y', ['run1'], 1]
		]);
		// Direct accuracy: run1 4/4, run2 3/4 → mean 7/8, SD (1/4)/√2.
		const [pair, single] = groups;
		expect(pair.mean.ljp.direct!.accuracy).toBeCloseTo(7 / 8, 12);
		expect(pair.sd.ljp.direct!.accuracy).toBeCloseTo(0.25 / Math.SQRT2, 12);
		expect(single.sd.ljp.direct!.accuracy).toBeNull();
		// 合同纠纷: accuracy 1 and 1/2 → mean 3/4.
		expect(pair.by_class['合同纠纷'].mean.ljp.direct!.accuracy).toBeCloseTo(3 / 4, 12);
		// 未分类 QWK is undefined in both runs (one claim each): nothing to average.
		expect(pair.by_class['未分类'].mean.ljp.direct!.qwk).toBeNull();
		expect(pair.by_class['未分类'].n_defined.ljp.direct!.qwk).toBe(0);
	});

	it('lists a run without records as empty and never counts it as a repetition', async () => {
		const EVAL: StageFile[] = [
			'LCA_results',
			'DCG_results',
			'LJP_direct',
			'LJP_gold',
			'LJP_interaction'
		];
		const files = await root(
			{ runId: 'run1' },
			{ runId: 'run2' },
			// A refused start: the manifest and nothing else (an empty file counts as none).
			{
				runId: 'run3',
				without: EVAL.filter((f) => f !== 'DCG_results'),
				omit: { DCG_results: CASES.map((c) => c.n) }
			},
			// gen stopped before its first LCA label: a1 records only. Not empty, just incomplete.
			{ runId: 'run4', without: EVAL }
		);
		const run4: RunKey = { runId: 'run4', modelDir: await modelDirName('gpt-x') };
		files[stageFilePath(run4, 'a1')] = '{"case_number": "A-1"}\n';
		for (const partial of [false, true]) {
			const report = await computeReport(memorySource(files), { partial });
			expect(report.runs.map((r) => [r.run_id, r.empty])).toEqual([
				['run1', false],
				['run2', false],
				['run3', true],
				['run4', false]
			]);
			expect(report.groups.map((g) => [g.run_ids, g.n])).toEqual([[['run1', 'run2', 'run4'], 3]]);
			const empty = report.runs[2];
			expect(empty.metrics).toEqual({
				lca: null,
				dcg: null,
				ljp: { direct: null, gold: null, interaction: null }
			});
			expect(empty.notes.map((n) => english(n))).toEqual([
				expect.stringMatching(/^no records: .*not counted in any group/)
			]);
			const text = formatReport(report);
			expect(text).toMatch(/^LexPilot results: 4 runs \(1 empty, in no group\) in 1 group/);
			expect(text).toContain('run3 (empty)');
		}
	});

	it.each([
		{ options: { runId: 'run2' }, expected: ['run2/gpt-x'] },
		{ options: { model: 'gpt-y' }, expected: ['run1/gpt-y'] },
		{ options: { runId: 'run1', model: 'gpt-x' }, expected: ['run1/gpt-x'] },
		{ options: { runId: 'run9' }, expected: [] }
	])('filters by $options', async ({ options, expected }) => {
		const files = await root(
			{ runId: 'run1' },
			{ runId: 'run2' },
			{ runId: 'run1', model: 'gpt-y' }
		);
		const { runs } = await computeReport(memorySource(files), options);
		expect(runs.map((r) => `${r.run_id}/${r.model}`)).toEqual(expected);
	});

	it('filters by model folder name too', async () => {
		const files = await root({ runId: 'run1' }, { runId: 'run1', model: 'org/Model Y' });
		const dir = await modelDirName('org/Model Y');
		const { runs } = await computeReport(memorySource(files), { model: dir });
		expect(runs.map((r) => r.model)).toEqual(['org/Model Y']);
	});

	it('warns about results that have no manifest and skips them', async () => {
		const files = await root({ runId: 'run1' });
		const orphan = stageFilePath({ runId: 'old', modelDir: 'gpt-x-00000000' }, 'LJP_gold');
		files[orphan] = '';
		const report = await computeReport(memorySource(files, 'out'));
		expect(report.runs).toHaveLength(1);
		expect(report.warnings.map((n) => english(n))).toEqual([
			`out/runs/old/gpt-x-00000000/manifest.json is missing, so ${orphan} cannot be scored`
		]);
	});

	it('reads the next runs while one is scored, and reports what reading them in turn reports', async () => {
		const files = await root({ runId: 'run1' }, { runId: 'run2' }, { runId: 'run3' });
		const plain = memorySource(files);
		let open = 0;
		let most = 0;
		const source = {
			...plain,
			read: async (path: string) => {
				most = Math.max(most, ++open);
				// Answered a macrotask later, as a store answers: reads asked meanwhile overlap.
				await new Promise((resolve) => setTimeout(resolve, 0));
				open--;
				return plain.read(path);
			}
		};
		expect(await computeReport(source)).toEqual(await computeReport(plain));
		// More than one run's manifest and five eval files at once.
		expect(most).toBeGreaterThan(6);
	});

	it("names an earlier run's bad file, not a later one's read meanwhile", async () => {
		const files = await root({ runId: 'run1' }, { runId: 'run2' });
		const run = (id: string) => ({ runId: id, modelDir: '' });
		const modelDir = await modelDirName('gpt-x');
		const gold = stageFilePath({ ...run('run1'), modelDir }, 'LJP_gold');
		files[gold] = files[gold].replace('"predicted":["部分支持"]', '"predicted":["partly"]');
		files[manifestPath({ ...run('run2'), modelDir })] = '{';
		await expect(computeReport(memorySource(files, 'out'))).rejects.toThrow(
			`out/${gold}, line 2: field "predicted.0"`
		);
	});

	it('ignores files outside the layout', async () => {
		const files = await root({ runId: 'run1' });
		files['notes.txt'] = 'hello';
		files['eval_results/run1/README.md'] = '#';
		expect((await computeReport(memorySource(files))).runs).toHaveLength(1);
	});

	describe('errors name the file', () => {
		const gold = async () =>
			stageFilePath({ runId: 'run1', modelDir: await modelDirName('gpt-x') }, 'LJP_gold');
		const manifest = async () =>
			manifestPath({ runId: 'run1', modelDir: await modelDirName('gpt-x') });

		it.each([
			{
				name: 'a malformed record line',
				edit: async (f: Record<string, string>) => {
					const lines = f[await gold()].split('\n');
					lines[1] = lines[1].slice(0, 30);
					f[await gold()] = lines.join('\n');
				},
				message: async () => `out/${await gold()}, line 2: not valid JSON`
			},
			{
				name: 'a record that breaks its schema',
				edit: async (f: Record<string, string>) => {
					f[await gold()] = f[await gold()].replace(
						'"predicted":["部分支持"]',
						'"predicted":["partly"]'
					);
				},
				message: async () => `out/${await gold()}, line 2: field "predicted.0"`
			},
			{
				name: 'a truncated last line',
				edit: async (f: Record<string, string>) => {
					f[await gold()] = f[await gold()].slice(0, -10);
				},
				message: async () => `out/${await gold()}, line 3: the last line has no line end`
			},
			{
				name: 'a duplicated case',
				edit: async (f: Record<string, string>) => {
					const first = f[await gold()].split('\n')[0];
					f[await gold()] += `${first}\n`;
				},
				message: async () =>
					`out/${await gold()}, line 4: case_number A-1 already has a record on line 1`
			},
			{
				name: 'a manifest that is not JSON',
				edit: async (f: Record<string, string>) => {
					f[await manifest()] = '{"run_id": ';
				},
				message: async () => `out/${await manifest()}: not valid JSON`
			},
			{
				name: 'a manifest missing a field',
				edit: async (f: Record<string, string>) => {
					const m = JSON.parse(f[await manifest()]);
					delete m.dataset.selected_case_numbers;
					f[await manifest()] = JSON.stringify(m);
				},
				message: async () =>
					`out/${await manifest()}: not a valid run manifest: field "dataset.selected_case_numbers"`
			},
			{
				name: 'a manifest moved to another run folder',
				edit: async (f: Record<string, string>) => {
					const m = JSON.parse(f[await manifest()]);
					m.run_id = 'run7';
					f[await manifest()] = JSON.stringify(m);
				},
				message: async () => `out/${await manifest()}: the manifest names run "run7"`
			}
		])('$name', async ({ edit, message }) => {
			const files = await root({ runId: 'run1' });
			await edit(files);
			const result = computeReport(memorySource(files, 'out'));
			await expect(result).rejects.toThrow(CheckpointError);
			await expect(result).rejects.toThrow(await message());
		});
	});
});

/**
 * The `results` command, driven in-process as a user runs it, over the fixture output roots of
 * tests/fixtures/results (copied to temporary folders where a test changes one). One file because
 * every block (JSON, tables, errors, statistics) shares those roots, `results`/`resultsIn` and the
 * hand-computed figures of the fixture below; splitting would scatter the figures the assertions
 * check against.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliInProcess } from '../../../tests/cli/run-cli';
import { callLogLine } from '../../lib/core/calls/log';
import type { CallLogEntry } from '../../lib/core/calls/schema';
import { writeRandomRuns } from '../../../tests/unit/metrics/write-runs';
import { makeCallEntry } from '../../../tests/support/record-factories';

const FIXTURES = resolve(__dirname, '../../../tests/fixtures/results');
const MODEL_DIR = 'qwen2.5-7b-instruct-2a1aaaf3';

/** A call-log line by hand. */
const call = (overrides: Partial<CallLogEntry>) => callLogLine(makeCallEntry(overrides));

/** repeated-runs in a temporary folder, with `calls` as run1's calls.jsonl. */
function withCallLog(calls: string): string {
	const root = mkdtempSync(join(tmpdir(), 'lexpilot-results-calls-'));
	cpSync(join(FIXTURES, 'repeated-runs'), root, { recursive: true });
	writeFileSync(join(root, 'runs', 'run1', MODEL_DIR, 'calls.jsonl'), calls);
	return root;
}

async function results(...args: string[]) {
	return resultsIn(FIXTURES, ...args);
}

const resultsIn = (cwd: string, ...args: string[]) =>
	runCliInProcess(['results', ...args], { cwd });

/*
 * Hand-computed figures of tests/fixtures/results/repeated-runs (labels in generate.ts).
 * run1 LCA: TP=2 FN=2 FP=1 TN=3 → F1_U 4/7, F1_C 6/9, Macro 13/21, Acc_C 3/4, Acc_U 1/2.
 * run2 LCA: TP=3 FN=1 FP=1 TN=3 → every value 3/4.
 * run1 DCG: 是否, 否是, 否否, 否否 → success 2/4, round 1 1/4, round 2 1/4.
 * run2 DCG: 是是, 否否, 是否, 否是 → success 3/4, round 1 2/4, round 2 2/4.
 * LJP gold claims 0,2 | 1 | 0,1,2 | 2 (支持=0, 部分支持=1, 驳回=2):
 *   run1 direct 0,0 | 0 | 0,2,2 | 2 → acc 4/7, QWK 22/43 (arithmetic in ljp.spec.ts)
 *   run2 direct 0,2 | 1 | 0,0,2 | 2 → acc 6/7, QWK 10/11
 *   run1 interaction all 驳回 → acc 3/7, QWK 0; run2 0,2 | 1 | 1,1,2 | 0 → acc 5/7, QWK 4/9
 *   gold setup predicts gold → acc 1, QWK 1.
 * run3 = run1's labels at temperature 0.2: its own group.
 */
const RUN1 = {
	lca: { macro_f1: 13 / 21, f1_u: 4 / 7, f1_c: 2 / 3, acc_c: 3 / 4, acc_u: 1 / 2, n: 8 },
	dcg: { success_rate: 1 / 2, round1_rate: 1 / 4, round2_rate: 1 / 4, n: 4 },
	ljp: {
		direct: { qwk: 22 / 43, accuracy: 4 / 7, n_claims: 7 },
		gold: { qwk: 1, accuracy: 1, n_claims: 7 },
		interaction: { qwk: 0, accuracy: 3 / 7, n_claims: 7 }
	}
};
const RUN2 = {
	lca: { macro_f1: 3 / 4, f1_u: 3 / 4, f1_c: 3 / 4, acc_c: 3 / 4, acc_u: 3 / 4, n: 8 },
	dcg: { success_rate: 3 / 4, round1_rate: 1 / 2, round2_rate: 1 / 2, n: 4 },
	ljp: {
		direct: { qwk: 10 / 11, accuracy: 6 / 7, n_claims: 7 },
		gold: { qwk: 1, accuracy: 1, n_claims: 7 },
		interaction: { qwk: 4 / 9, accuracy: 5 / 7, n_claims: 7 }
	}
};

/** Deep equality with numbers compared to 1e-12. */
function expectClose(actual: unknown, expected: unknown, path = '') {
	if (typeof expected === 'number') {
		expect(typeof actual, path).toBe('number');
		expect(Math.abs((actual as number) - expected), path).toBeLessThan(1e-12);
	} else if (expected !== null && typeof expected === 'object') {
		for (const [k, v] of Object.entries(expected))
			expectClose((actual as Record<string, unknown>)[k], v, `${path}.${k}`);
	} else expect(actual, path).toEqual(expected);
}

describe('results --json', () => {
	it('prints one JSON object in the PROTOCOL.md §8 shape, with hand-computed figures', async () => {
		const { code, stdout, stderr } = await results('--output-root', 'repeated-runs', '--json');
		expect(stderr).toBe('');
		expect(code).toBe(0);
		const report = JSON.parse(stdout);
		expect(Object.keys(report)).toEqual(expect.arrayContaining(['runs', 'groups']));

		expect(report.runs.map((r: { run_id: string }) => r.run_id)).toEqual(['run1', 'run2', 'run3']);
		for (const run of report.runs) {
			expect(Object.keys(run).slice(0, 5)).toEqual([
				'run_id',
				'model',
				'model_dir',
				'metrics',
				'by_class'
			]);
			expect(run.model).toBe('qwen2.5-7b-instruct');
			expect(run.model_dir).toBe(MODEL_DIR);
			expect(Object.keys(run.metrics)).toEqual(['lca', 'dcg', 'ljp']);
			expect(Object.keys(run.metrics.lca)).toEqual([
				'macro_f1',
				'f1_u',
				'f1_c',
				'acc_c',
				'acc_u',
				'n'
			]);
			expect(Object.keys(run.metrics.dcg)).toEqual([
				'success_rate',
				'round1_rate',
				'round2_rate',
				'n'
			]);
			expect(Object.keys(run.metrics.ljp)).toEqual(['direct', 'gold', 'interaction']);
			expect(Object.keys(run.metrics.ljp.gold)).toEqual(['qwk', 'accuracy', 'n_claims']);
			expect(Object.keys(run.by_class)).toEqual(['合同纠纷', '婚姻家庭纠纷', '未分类']);
			expect(Object.keys(run.by_class['合同纠纷'])).toEqual([
				'lca',
				'dcg',
				'ljp',
				'ci95',
				'counts',
				'ljp_confusion'
			]);
		}
		expectClose(report.runs[0].metrics, RUN1);
		expectClose(report.runs[1].metrics, RUN2);
		expectClose(report.runs[2].metrics, RUN1);
		// 未分类 is case 2023-004 alone: one claim 驳回 → 驳回 in run1, so QWK is undefined.
		expect(report.runs[0].by_class['未分类'].ljp.interaction).toEqual({
			qwk: null,
			accuracy: 1,
			n_claims: 1
		});

		// run1 and run2 differ only in endpoints: one group. run3's temperature differs.
		expect(report.groups.map((g: { run_ids: string[]; n: number }) => [g.run_ids, g.n])).toEqual([
			[['run1', 'run2'], 2],
			[['run3'], 1]
		]);
		const [pair, single] = report.groups;
		expect(Object.keys(pair).slice(0, 6)).toEqual([
			'model',
			'run_ids',
			'n',
			'mean',
			'sd',
			'by_class'
		]);
		expect(pair.model).toBe('qwen2.5-7b-instruct');
		// Macro-F1: mean (13/21 + 3/4)/2 = 115/168; SD = |3/4 − 13/21|/√2 = (11/84)/√2.
		expectClose(pair.mean.lca.macro_f1, 115 / 168);
		expectClose(pair.sd.lca.macro_f1, 11 / 84 / Math.SQRT2);
		// Interaction QWK: mean (0 + 4/9)/2 = 2/9, SD (4/9)/√2.
		expectClose(pair.mean.ljp.interaction.qwk, 2 / 9);
		expectClose(pair.sd.ljp.interaction.qwk, 4 / 9 / Math.SQRT2);
		expectClose(pair.mean.dcg, {
			success_rate: 5 / 8,
			round1_rate: 3 / 8,
			round2_rate: 3 / 8,
			n: 4
		});
		expect(Object.keys(pair.by_class['未分类'])).toEqual(expect.arrayContaining(['mean', 'sd']));
		// 未分类 interaction QWK is defined in run2 only (0): mean over that one run, SD undefined.
		expect(pair.by_class['未分类'].mean.ljp.interaction.qwk).toBe(0);
		expect(pair.by_class['未分类'].sd.ljp.interaction.qwk).toBeNull();
		expect(pair.by_class['未分类'].n_defined.ljp.interaction.qwk).toBe(1);
		expectClose(single.mean.lca, RUN1.lca);
		expect(single.sd.lca.macro_f1).toBeNull();
	});

	it.each([
		['--run-id', 'run2', ['run2']],
		['--model', 'qwen2.5-7b-instruct', ['run1', 'run2', 'run3']],
		['--model', MODEL_DIR, ['run1', 'run2', 'run3']]
	])('filters with %s %s', async (flag, value, expected) => {
		const { code, stdout } = await results('--output-root', 'repeated-runs', '--json', flag, value);
		expect(code).toBe(0);
		expect(JSON.parse(stdout).runs.map((r: { run_id: string }) => r.run_id)).toEqual(expected);
	});

	it('puts null in place of an incomplete stage and says why', async () => {
		const { code, stdout } = await results('--output-root', 'incomplete-run', '--json');
		expect(code).toBe(0);
		const [run] = JSON.parse(stdout).runs;
		expect(run.metrics.ljp.gold).toBeNull();
		expect(run.metrics.dcg).toBeNull();
		expect(run.notes).toContain('LJP_gold: 3 of 4 cases, not scored until complete');
	});
});

describe('results on integer case numbers (PROTOCOL.md §5)', () => {
	/** The fixture runs with case numbers 1001…1004, integers (as a Python writer leaves them) in `only`'s files. */
	function pythonStyle(only?: (path: string) => boolean): string {
		const root = mkdtempSync(join(tmpdir(), 'lexpilot-results-int-'));
		cpSync(join(FIXTURES, 'repeated-runs'), root, { recursive: true });
		for (const path of readdirSync(root, { recursive: true, encoding: 'utf8' })) {
			if (!/\.(jsonl?|json)$/.test(path)) continue;
			const full = join(root, path);
			// "2023-001" becomes "1001" everywhere, then the integer 1001 where asked.
			const text = readFileSync(full, 'utf8').replace(/"2023-00(\d)"/g, '"100$1"');
			writeFileSync(full, only && !only(path) ? text : text.replace(/"(100\d)"/g, '$1'));
		}
		return root;
	}

	it('reads records and manifests whose case numbers are integers, with the same figures', async () => {
		const root = pythonStyle();
		const manifest = readFileSync(join(root, `runs/run1/${MODEL_DIR}/manifest.json`), 'utf8');
		expect(JSON.parse(manifest).dataset.selected_case_numbers).toEqual([1001, 1002, 1003, 1004]);
		const { code, stdout, stderr } = await results('--output-root', root, '--json');
		expect(stderr).toBe('');
		expect(code).toBe(0);
		const report = JSON.parse(stdout);
		expectClose(report.runs[0].metrics, RUN1);
		expectClose(report.runs[1].metrics, RUN2);
		expect(report.groups.map((g: { run_ids: string[] }) => g.run_ids)).toEqual([
			['run1', 'run2'],
			['run3']
		]);
	});

	it('compares as strings: integer records under a string manifest, and runs of either form group together', async () => {
		// run1's records are integers under its string manifest; run2 is wholly integer.
		const root = pythonStyle(
			(path) => (path.includes('run1') && path.endsWith('.jsonl')) || path.includes('run2')
		);
		const { code, stdout, stderr } = await results('--output-root', root, '--json');
		expect(stderr).toBe('');
		expect(code).toBe(0);
		const report = JSON.parse(stdout);
		expectClose(report.runs[0].metrics, RUN1);
		expectClose(report.runs[1].metrics, RUN2);
		expect(report.groups[0].run_ids).toEqual(['run1', 'run2']);
	});
});

describe('results tables', () => {
	it('prints aligned per-run, per-class and group tables with the key numbers', async () => {
		const { code, stdout } = await results('--output-root', 'repeated-runs');
		expect(code).toBe(0);
		const lines = stdout.split('\n');
		const row = (pattern: RegExp) => lines.filter((l) => pattern.test(l));
		// Per-run LCA: Macro-F1 13/21, F1_U 4/7, F1_C 2/3, Acc_C 3/4, Acc_U 1/2, n 8.
		expect(
			row(
				/^run1\s+qwen2\.5-7b-instruct\s+0\.6190 \[—\]\s+0\.5714 \[—\]\s+0\.6667 \[—\]\s+0\.7500 \[—\]\s+0\.5000 \[—\]\s+8$/
			)
		).toHaveLength(1);
		// Per-run DCG for run2: 3/4, 1/2, 1/2 of 4 cases.
		expect(
			row(/^run2\s+qwen2\.5-7b-instruct\s+0\.7500 \[—\]\s+0\.5000 \[—\]\s+0\.5000 \[—\]\s+4$/)
		).toHaveLength(1);
		// Per-run LJP for run2: direct 10/11, 6/7; gold 1, 1; interaction 4/9, 5/7.
		expect(
			row(
				/^run2\s+\S+\s+0\.9091 \[—\]\s+0\.8571 \[—\]\s+7\s+1\.0000 \[—\]\s+1\.0000 \[—\]\s+7\s+0\.4444 \[—\]\s+0\.7143 \[—\]\s+7$/
			)
		).toHaveLength(1);
		// Per class: 未分类 direct QWK undefined.
		expect(row(/^run1\s+\S+\s+未分类\s+—\s+1\.0000 \[—\]\s+1\s/)).toHaveLength(1);
		// Group of run1 and run2: Macro-F1 0.6845 ± 0.0926.
		expect(row(/^qwen2\.5-7b-instruct\s+2\s+run1, run2\s+0\.6845 ± 0\.0926/)).toHaveLength(1);
		// A group of one has no SD.
		expect(row(/^qwen2\.5-7b-instruct\s+1\s+run3\s+0\.6190 ± —/)).toHaveLength(1);
		// 未分类 interaction QWK defined in one of the two runs.
		expect(stdout).toContain('0.0000 ± — [1]');
		expect(stdout).toMatch(/^— +undefined: a zero denominator/m);
		expect(stdout).toContain(
			'cause "劳动争议" is not in the run\'s category map, counted as 未分类'
		);
		// Every row of a table ends at the same column (wide Chinese characters included).
		const section = lines.slice(lines.indexOf('Per run and cause class'));
		const start = section.indexOf('LCA (n = records, 2 per case)') + 1;
		const body = section.slice(start, section.indexOf('', start));
		expect(body).toHaveLength(2 + 9); // header, rule, 3 runs × 3 classes
		const width = (s: string) =>
			[...s].reduce((w, ch) => w + (/[\u4e00-\u9fff]/.test(ch) ? 2 : 1), 0);
		expect(new Set(body.map(width)).size).toBe(1);
	});

	it('names incomplete stages and shows them as n/a; --partial scores them, marked *', async () => {
		const full = await results('--output-root', 'incomplete-run');
		expect(full.code).toBe(0);
		expect(full.stdout).toContain(
			'run1 / qwen2.5-7b-instruct: LJP_gold: 3 of 4 cases, not scored until complete'
		);
		expect(full.stdout).toContain('run1 / qwen2.5-7b-instruct: DCG_results: no file yet');
		expect(full.stdout).toMatch(/^run1\s+\S+\s+n\/a\s+n\/a\s+n\/a\s+n\/a$/m);

		const partial = await results('--output-root', 'incomplete-run', '--partial');
		expect(partial.code).toBe(0);
		expect(partial.stdout).toContain('PARTIAL');
		expect(partial.stdout).toContain('LJP_gold: 3 of 4 cases, partial figures over the saved ones');
		// Gold LJP over cases 1, 2, 4: 2 + 1 + 1 = 4 claims, all correct.
		expect(partial.stdout).toMatch(
			/^run1 \*\s+\S+\s+0\.5116 \[—\]\s+0\.5714 \[—\]\s+7\s+1\.0000 \[—\]\s+1\.0000 \[—\]\s+4\s/m
		);
	});
});

describe('results errors', () => {
	it('exits 2 naming the file and line of a malformed record', async () => {
		const { code, stdout, stderr } = await results('--output-root', 'malformed-line');
		expect(code).toBe(2);
		expect(stdout).toBe('');
		expect(stderr).toContain(
			`${join(FIXTURES, 'malformed-line')}/eval_results/run1/${MODEL_DIR}/LJP_direct.jsonl, line 3: not valid JSON`
		);
	});

	it('exits 2 naming a stage file that is not UTF-8 text, as the bundle importer does', async () => {
		const root = mkdtempSync(join(tmpdir(), 'lexpilot-results-utf8-'));
		cpSync(join(FIXTURES, 'incomplete-run'), root, { recursive: true });
		const dir = join(root, 'eval_results');
		const file = readdirSync(dir, { recursive: true, encoding: 'utf8' })
			.map((p) => join(dir, p))
			.find((p) => p.endsWith('.jsonl'))!;
		const bytes = readFileSync(file);
		bytes[5] = 0xff;
		writeFileSync(file, bytes);
		const { code, stderr } = await results('--output-root', root);
		expect(code).toBe(2);
		expect(stderr).toContain(`${file}: not UTF-8 text`);
	});

	it('adds call-log totals as `calls` beside `metrics`, null for a run without a log', async () => {
		const root = withCallLog(
			call({ seq: 0 }) +
				call({
					seq: 1,
					role: 'judge',
					task: 'judge_lca',
					started_at: '2026-01-01T00:00:00.500Z',
					usage: { prompt: 40, completion: 4, reasoning: 2 },
					latency_ms: 2000,
					retries: 1
				}) +
				call({ seq: 2, stage: 'dcg', task: 'force_ask', usage: null, latency_ms: 500 })
		);
		const { code, stdout } = await results('--output-root', root, '--json');
		expect(code).toBe(0);
		const report = JSON.parse(stdout);
		const [run1, ...others] = report.runs;
		expect(run1.run_id).toBe('run1');
		expect(run1.calls).toMatchObject({
			calls: 3,
			retries: 1,
			failed: 0,
			no_usage: 1,
			wall_ms: 2500,
			sessions: 1,
			tokens: { prompt: 140, completion: 14, reasoning: 2 },
			by_role: { judge: { calls: 1, tokens: { prompt: 40, completion: 4, reasoning: 2 } } },
			by_stage: {
				gen: { evaluated: { calls: 1 }, judge: { calls: 1, retries: 1 } },
				dcg: { evaluated: { calls: 1, no_usage: 1 } }
			}
		});
		for (const r of others) expect(r.calls).toBeNull();

		const text = await results('--output-root', root);
		expect(text.stdout).toContain('Model calls (calls.jsonl)');
		expect(text.stdout).toMatch(/run1 .* gen +judge +1 +0 +1 +40 +4 +2 +2\.0/);
		expect(text.stdout).toContain('wall time 2.5 s over 1 session');
		expect(text.stdout).toMatch(/No call log: run2/);
	});

	it('names the file and line of a malformed call-log line, and still prints the metrics', async () => {
		const root = withCallLog(`${call({})}{"session": "s1"}\n`);
		const { code, stdout } = await results('--output-root', root, '--json');
		expect(code).toBe(0);
		const [run1] = JSON.parse(stdout).runs;
		expect(run1.calls).toBeNull();
		expect(run1.metrics.lca.n).toBe(8);
		expect(run1.notes.join('\n')).toMatch(
			/call log could not be read.*run1\/qwen2\.5-7b-instruct-2a1aaaf3\/calls\.jsonl, line 2: not a call-log entry/
		);
	});

	it('exits 2 when there are no runs under the output root', async () => {
		const empty = mkdtempSync(join(tmpdir(), 'lexpilot-results-'));
		const { code, stderr } = await results('--output-root', empty);
		expect(code).toBe(2);
		expect(stderr).toContain(`error: no runs under ${empty}`);
	});

	it('exits 2 when no run matches the filters, saying which', async () => {
		const { code, stderr } = await results('--output-root', 'repeated-runs', '--run-id', 'run9');
		expect(code).toBe(2);
		expect(stderr).toContain('no runs with run id "run9"');
	});

	it('exits 2 for an output root that does not exist, and for an unknown flag', async () => {
		expect((await results('--output-root', 'nowhere')).stderr).toContain(
			`output root ${join(FIXTURES, 'nowhere')} does not exist`
		);
		expect((await results('--output-root', 'nowhere')).code).toBe(2);
		expect((await results('--bogus')).code).toBe(2);
	});

	it('defaults the output root to ./lexpilot-output', async () => {
		expect((await results()).stderr).toContain(join(FIXTURES, 'lexpilot-output'));
	});
});

const Z = 1.959963984540054 + 0.8416212335729143;
type Pair = [number, number] | null;

describe('results statistics on the hand-computed fixture', () => {
	it('gives ci95 beside metrics with the same nesting, null below 10 cases', async () => {
		const { code, stdout } = await results('--output-root', 'repeated-runs', '--json');
		expect(code).toBe(0);
		const report = JSON.parse(stdout);
		expect(report.bootstrap).toEqual({
			unit: 'case',
			method: 'percentile',
			level: 0.95,
			resamples: 2000,
			seed: 2411
		});
		const [run1] = report.runs;
		expect(run1.ci95).toEqual({
			lca: { macro_f1: null, f1_u: null, f1_c: null, acc_c: null, acc_u: null },
			dcg: { success_rate: null, round1_rate: null, round2_rate: null },
			ljp: {
				direct: { qwk: null, accuracy: null },
				gold: { qwk: null, accuracy: null },
				interaction: { qwk: null, accuracy: null }
			}
		});
		expect(run1.by_class['合同纠纷'].ci95.lca.macro_f1).toBeNull();
	});

	it('gives LJP confusion matrices and case/claim counts, overall and per class', async () => {
		const { stdout } = await results('--output-root', 'repeated-runs', '--json');
		const [run1] = JSON.parse(stdout).runs;
		// gold 0,2 | 1 | 0,1,2 | 2 against run1 direct 0,0 | 0 | 0,2,2 | 2 (rows gold, columns predicted)
		expect(run1.ljp_confusion.direct).toEqual([
			[2, 0, 0],
			[1, 0, 1],
			[1, 0, 2]
		]);
		expect(run1.ljp_confusion.gold).toEqual([
			[2, 0, 0],
			[0, 2, 0],
			[0, 0, 3]
		]);
		expect(run1.counts).toEqual({ cases: 4, claims: 7 });
		expect(run1.by_class['合同纠纷'].counts).toEqual({ cases: 2, claims: 3 });
		expect(run1.by_class['未分类'].counts).toEqual({ cases: 1, claims: 1 });
		// Case 2023-004 alone: gold 驳回, interaction 驳回.
		expect(run1.by_class['未分类'].ljp_confusion.interaction).toEqual([
			[0, 0, 0],
			[0, 0, 0],
			[0, 0, 1]
		]);
		// Worst-case power for 4 cases: (z.975 + z.8) · √0.5 / √4.
		expect(run1.power.n_cases).toBe(4);
		expect(run1.power.worst_case.dcg.success_rate).toBeCloseTo((Z * Math.SQRT1_2) / 2, 12);
	});

	it('explains both kinds of uncertainty in the text legend', async () => {
		const { stdout } = await results('--output-root', 'repeated-runs');
		expect(stdout).toContain(
			'[lo, hi] 95% case-bootstrap CI (percentile, 2000 resamples, seed 2411)'
		);
		expect(stdout).toContain('± SD    spread over repeated runs on the same cases');
		expect(stdout).toMatch(/^- run1 \/ qwen2\.5-7b-instruct \(4 cases\): DCG Success 0\.9905/m);
	});
});

describe('results statistics over 60 cases', async () => {
	const root = await writeRandomRuns(60, [
		{ runId: 'base', model: 'model-a', seed: 1, skill: 0.5 },
		{ runId: 'better', model: 'model-b', seed: 2, skill: 0.9 },
		{ runId: 'both', model: 'model-a', seed: 3 },
		{ runId: 'both', model: 'model-b', seed: 4 },
		{
			runId: 'fewer',
			model: 'model-a',
			seed: 5,
			caseNumbers: Array.from({ length: 59 }, (_, i) => `c${i + 1}`)
		},
		{ runId: 'elsewhere', model: 'model-a', seed: 6, datasetSha256: 'e'.repeat(64) }
	]);
	const json = async (...args: string[]) => {
		const r = await resultsIn(root, '--output-root', root, '--json', ...args);
		expect(r.stderr).toBe('');
		expect(r.code).toBe(0);
		return JSON.parse(r.stdout);
	};

	it('brackets every defined rate by its interval, per run and per class', async () => {
		const report = await json('--run-id', 'base');
		const [run] = report.runs;
		expect(Object.keys(run).slice(0, 6)).toEqual([
			'run_id',
			'model',
			'model_dir',
			'metrics',
			'by_class',
			'ci95'
		]);
		const check = (
			metrics: Record<string, Record<string, unknown>>,
			ci95: Record<string, unknown>
		) => {
			for (const stage of ['lca', 'dcg'] as const) {
				const intervals = ci95[stage] as Record<string, Pair>;
				expect(Object.keys(intervals)).toEqual(
					Object.keys(metrics[stage]).filter((k) => k !== 'n')
				);
				for (const [k, ci] of Object.entries(intervals)) {
					const v = metrics[stage][k] as number;
					expect(ci, `${stage}.${k}`).toHaveLength(2);
					expect(ci![0]).toBeLessThanOrEqual(v);
					expect(ci![1]).toBeGreaterThanOrEqual(v);
				}
			}
			const ljp = ci95.ljp as Record<string, Record<string, Pair>>;
			expect(Object.keys(ljp)).toEqual(['direct', 'gold', 'interaction']);
			expect(Object.keys(ljp.direct)).toEqual(['qwk', 'accuracy']);
		};
		check(run.metrics, run.ci95);
		expect(Object.keys(run.by_class)).toEqual(['合同纠纷', '婚姻家庭纠纷', '未分类']);
		for (const cls of Object.values(run.by_class) as {
			counts: { cases: number };
			ci95: Record<string, unknown>;
		}[]) {
			expect(cls.counts.cases).toBeGreaterThanOrEqual(10);
			check(cls as unknown as Record<string, Record<string, unknown>>, cls.ci95);
		}
	});

	it('reproduces with the default seed and changes with --seed or --resamples', async () => {
		const a = (await json('--run-id', 'base')).runs[0].ci95;
		expect((await json('--run-id', 'base')).runs[0].ci95).toEqual(a);
		expect((await json('--run-id', 'base', '--seed', '7')).runs[0].ci95).not.toEqual(a);
		const r100 = await json('--run-id', 'base', '--resamples', '100');
		expect(r100.bootstrap.resamples).toBe(100);
		expect(r100.runs[0].ci95).not.toEqual(a);
		for (const bad of [
			['--resamples', '5'],
			['--seed', '4294967296'],
			['--resamples', 'many']
		]) {
			const r = await resultsIn(root, '--output-root', root, ...bad);
			expect(r.code).toBe(2);
			expect(r.stderr).toContain(`${bad[0]} "${bad[1]}": expected an integer`);
		}
	});

	it('prints each interval next to its value in the tables', async () => {
		const report = await json('--run-id', 'base');
		const { lca } = report.runs[0].metrics;
		const [lo, hi] = report.runs[0].ci95.lca.macro_f1;
		const { stdout } = await resultsIn(root, '--output-root', root, '--run-id', 'base');
		const cell = `${lca.macro_f1.toFixed(4)} [${lo.toFixed(4)}, ${hi.toFixed(4)}]`;
		expect(stdout).toMatch(
			new RegExp(`^base\\s+model-a\\s+${cell.replace(/[[\]]/g, '\\$&')}\\s`, 'm')
		);
	});

	it('--compare --json gives B − A with paired intervals and p-values, per class and power', async () => {
		const { comparison } = await json('--compare', 'base', 'better');
		expect(Object.keys(comparison)).toEqual(
			expect.arrayContaining(['a', 'b', 'n_cases', 'metrics', 'by_class', 'power'])
		);
		expect(comparison.a).toMatchObject({ run_id: 'base', model: 'model-a' });
		expect(comparison.b).toMatchObject({ run_id: 'better', model: 'model-b' });
		// Each side carries its own figures and intervals, as `results --run-id` gives them.
		const own = (await json('--run-id', 'base')).runs[0];
		expect(comparison.a.metrics).toEqual(own.metrics);
		expect(comparison.a.ci95).toEqual(own.ci95);
		expect(comparison.n_cases).toBe(60);
		const a = (await json('--run-id', 'base')).runs[0].metrics;
		const b = (await json('--run-id', 'better')).runs[0].metrics;
		const m = comparison.metrics;
		expect(m.lca.macro_f1.diff).toBeCloseTo(b.lca.macro_f1 - a.lca.macro_f1, 12);
		expect(m.ljp.direct.qwk.diff).toBeCloseTo(b.ljp.direct.qwk - a.ljp.direct.qwk, 12);
		expect(Object.keys(m.dcg.success_rate)).toEqual(['diff', 'ci95', 'p']);
		// Skill 0.9 against 0.5 over 60 cases: a clear gain in LCA accuracy on underspecified histories.
		expect(m.lca.acc_u.ci95[0]).toBeGreaterThan(0);
		expect(m.lca.acc_u.p).toBeLessThan(0.01);
		expect(Object.keys(comparison.by_class)).toEqual(['合同纠纷', '婚姻家庭纠纷', '未分类']);
		expect(comparison.by_class['合同纠纷'].counts.cases).toBeGreaterThan(0);
		expect(Object.keys(comparison.by_class['合同纠纷'].lca)).toEqual(Object.keys(m.lca));
		expect(comparison.power.n_cases).toBe(60);
		expect(comparison.power.worst_case.dcg.success_rate).toBeCloseTo(
			(Z * Math.SQRT1_2) / Math.sqrt(60),
			12
		);
		expect(comparison.power.observed.lca.acc_u).toBeGreaterThan(0);
		expect(comparison.notes).toContain('the runs differ in models.evaluated');
	});

	it('--compare of a run with itself gives 0 [0, 0] with p = 1', async () => {
		const { comparison } = await json('--compare', 'base', 'base');
		for (const stage of [
			comparison.metrics.lca,
			comparison.metrics.dcg,
			comparison.metrics.ljp.direct
		]) {
			for (const d of Object.values(stage)) expect(d).toEqual({ diff: 0, ci95: [0, 0], p: 1 });
		}
	});

	it('--compare prints the paired table', async () => {
		const { code, stdout } = await resultsIn(
			root,
			'--output-root',
			root,
			'--compare',
			'base',
			'better'
		);
		expect(code).toBe(0);
		const { comparison } = await json('--compare', 'base', 'better');
		const d = comparison.metrics.lca.macro_f1;
		const sign = (v: number) =>
			(Number(Math.abs(v).toFixed(4)) === 0 ? ' ' : v > 0 ? '+' : '-') + Math.abs(v).toFixed(4);
		expect(stdout).toContain('LexPilot comparison: B − A on 60 paired cases');
		expect(stdout).toContain('A  base / model-a');
		expect(stdout).toContain(
			`${sign(d.diff)}  [${sign(d.ci95[0])}, ${sign(d.ci95[1])}]  ${d.p.toFixed(4)}`
		);
		expect(stdout).toMatch(/^Class 合同纠纷 \(\d+ cases, \d+ claims\)$/m);
		expect(stdout).toContain(
			'Power: smallest B − A detectable with 80% power at two-sided α = 0.05'
		);
	});

	it('--compare names runs by run id, with --model or --model-a/--model-b when ambiguous', async () => {
		const ambiguous = await resultsIn(root, '--output-root', root, '--compare', 'both', 'base');
		expect(ambiguous.code).toBe(2);
		expect(ambiguous.stderr).toContain(
			'run A: run "both" is ambiguous: it names 2 runs (models "model-a", "model-b")'
		);
		const cross = await json(
			'--compare',
			'both',
			'both',
			'--model-a',
			'model-a',
			'--model-b',
			'model-b'
		);
		expect([cross.comparison.a.model, cross.comparison.b.model]).toEqual(['model-a', 'model-b']);
		expect(
			(await json('--compare', 'both', 'base', '--model', 'model-a')).comparison.a.run_id
		).toBe('both');
		const missing = await resultsIn(root, '--output-root', root, '--compare', 'base', 'nope');
		expect(missing.code).toBe(2);
		expect(missing.stderr).toContain('run B: no run "nope"');
		expect(missing.stderr).toContain('Run ids there: "base", "better", "both"');
	});

	it('--compare refuses runs whose selected cases or datasets differ, saying why', async () => {
		const fewer = await resultsIn(root, '--output-root', root, '--compare', 'base', 'fewer');
		expect(fewer.code).toBe(2);
		expect(fewer.stdout).toBe('');
		expect(fewer.stderr).toContain(
			'cannot compare run "base" with run "fewer": the runs select different cases (A 60, B 59; only in A: 1 ("c60"); only in B: none)'
		);
		const elsewhere = await resultsIn(
			root,
			'--output-root',
			root,
			'--compare',
			'base',
			'elsewhere'
		);
		expect(elsewhere.code).toBe(2);
		expect(elsewhere.stderr).toContain('they were made on different datasets');
	});

	it('rejects --compare without two run ids, and stray arguments', async () => {
		const one = await resultsIn(root, '--output-root', root, '--compare', 'base');
		expect(one.code).toBe(2);
		expect(one.stderr).toContain('--compare needs two run ids');
		const stray = await resultsIn(root, '--output-root', root, 'base');
		expect(stray.code).toBe(2);
		expect(stray.stderr).toContain('unexpected argument "base"');
	});
});

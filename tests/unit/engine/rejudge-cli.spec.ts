/**
 * `lexpilot rejudge` on a simulated run, the judge being the fake OpenAI server scripted to
 * disagree (`contrary-judge-script.ts`): no generation call is made (counted in the new run's
 * call log and at the server), the judge calls equal the judged decisions, the metrics `results`
 * prints for the new run come from its new labels, and a run killed mid-way resumes to the files
 * an uninterrupted one writes.
 */
import type { ChildProcess } from 'node:child_process';
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { modelDirName, stageFilePath } from '../../../src/lib/core/layout';
import type { StageFile } from '../../../src/lib/core/record-names';
import { runArgs, runCliAsProcess, runCliInProcess } from '../../cli/run-cli';
import { contraryJudgeScript } from '../../engine/contrary-judge-script';
import { byTask } from '../../fake-openai/by-task';
import {
	startFakeOpenAI,
	type FakeOpenAI,
	type Handler,
	type Reply
} from '../../fake-openai/server';

const DATASET = resolve('tests/fixtures/engine/three-cases.json');
const JUDGED: StageFile[] = [
	'LCA_results',
	'DCG_results',
	'LJP_direct',
	'LJP_gold',
	'LJP_interaction'
];
const SHARED: StageFile[] = ['a1', 'interaction', 'force_ask', 'a1_direct', 'a1_force_judge'];
let tmp: string;
let server: FakeOpenAI | null = null;

beforeAll(async () => {
	tmp = await mkdtemp(join(tmpdir(), 'lexpilot-rejudge-cli-'));
});
afterEach(async () => {
	await server?.close();
	server = null;
});
afterAll(async () => {
	await rm(tmp, { recursive: true, force: true });
});

async function simulatedSource(root: string): Promise<void> {
	const made = await runCliInProcess(runArgs('run', { dataset: DATASET, root, simulated: true }));
	expect(made.code, made.stderr).toBe(0);
}

const rejudgeArgs = (root: string, baseURL: string) =>
	runArgs(
		'rejudge',
		{ dataset: DATASET, root },
		'--model',
		'simulated',
		'--as',
		'r1-j2',
		'--judge-model',
		'judge-2',
		'--judge-base-url',
		baseURL,
		'--concurrency',
		'1'
	);

async function lines(
	root: string,
	runId: string,
	file: StageFile
): Promise<Record<string, unknown>[]> {
	const run = { runId, modelDir: await modelDirName('simulated') };
	const text = await readFile(join(root, stageFilePath(run, file)), 'utf8');
	return text
		.trim()
		.split('\n')
		.map((l) => JSON.parse(l) as Record<string, unknown>);
}

async function fileText(root: string, runId: string, file: StageFile): Promise<string> {
	const run = { runId, modelDir: await modelDirName('simulated') };
	return readFile(join(root, stageFilePath(run, file)), 'utf8');
}

describe('lexpilot rejudge', () => {
	it('makes only judge calls, one per decision, and results scores the new labels', async () => {
		const root = join(tmp, 'counted');
		await simulatedSource(root);
		server = await startFakeOpenAI({ handler: byTask(contraryJudgeScript) });
		const r = await runCliInProcess(rejudgeArgs(root, server.baseURL));
		expect(r.code, r.stderr).toBe(0);
		expect(r.stdout).toContain('Re-judged run r1 (judge simulated-judge) with judge judge-2');

		const calls = (
			await readFile(
				join(root, `runs/r1-j2/${await modelDirName('simulated')}/calls.jsonl`),
				'utf8'
			)
		)
			.trim()
			.split('\n')
			.map((l) => JSON.parse(l) as { role: string; task: string });
		expect(calls.filter((c) => c.role !== 'judge')).toEqual([]);
		const lca = await lines(root, 'r1-j2', 'LCA_results');
		const dcg = await lines(root, 'r1-j2', 'DCG_results');
		const ljp = [
			...(await lines(root, 'r1-j2', 'LJP_direct')),
			...(await lines(root, 'r1-j2', 'LJP_gold')),
			...(await lines(root, 'r1-j2', 'LJP_interaction'))
		];
		const decisions =
			lca.length + dcg.flatMap((d) => d.round_labels as string[]).length + ljp.length;
		expect(calls).toHaveLength(decisions);
		expect(server.chatRequests).toHaveLength(decisions);
		// The same records (a store writes each as its schema orders the fields).
		for (const file of SHARED) {
			expect(await lines(root, 'r1-j2', file)).toEqual(await lines(root, 'r1', file));
		}

		const results = await runCliInProcess(['results', '--output-root', root, '--json']);
		expect(results.code, results.stderr).toBe(0);
		type Metrics = { dcg: { success_rate: number }; ljp: { gold: { accuracy: number } } };
		const runs = (JSON.parse(results.stdout) as { runs: { run_id: string; metrics: Metrics }[] })
			.runs;
		const metricsOf = (id: string) => runs.find((x) => x.run_id === id)!.metrics;
		const success = dcg.filter((d) => d.success === true).length / dcg.length;
		expect(metricsOf('r1-j2').dcg.success_rate).toBe(success);
		expect(metricsOf('r1-j2').dcg.success_rate).not.toBe(metricsOf('r1').dcg.success_rate);
		const gold = await lines(root, 'r1-j2', 'LJP_gold');
		const pairs = gold.flatMap((g) =>
			(g.predicted as string[]).map((p, i) => p === (g.gold as string[])[i])
		);
		expect(metricsOf('r1-j2').ljp.gold.accuracy).toBeCloseTo(
			pairs.filter(Boolean).length / pairs.length,
			12
		);
	});

	it('results --judges pairs each decision of the two judges', async () => {
		const root = join(tmp, 'judges');
		await simulatedSource(root);
		server = await startFakeOpenAI({ handler: byTask(contraryJudgeScript) });
		expect((await runCliInProcess(rejudgeArgs(root, server.baseURL))).code).toBe(0);
		const r = await runCliInProcess([
			'results',
			'--output-root',
			root,
			'--judges',
			'r1,r1-j2',
			'--json'
		]);
		expect(r.code, r.stderr).toBe(0);
		type Stage = { n: number; agreed: number; confusion: number[][] };
		const [model] = (
			JSON.parse(r.stdout) as { judges: { models: { stages: Record<string, Stage> }[] } }
		).judges.models;
		const [a, b] = [
			await lines(root, 'r1', 'DCG_results'),
			await lines(root, 'r1-j2', 'DCG_results')
		];
		const yes = a.flatMap((d) => d.round_labels as string[]).filter((l) => l === '是').length;
		// The contrary judge says 否 throughout: every 是 of judge A is a disagreement.
		expect(model.stages.dcg.confusion).toEqual([
			[0, yes],
			[0, 6 - yes]
		]);
		expect(b.every((d) => d.success === false)).toBe(true);
		const lcaA = await lines(root, 'r1', 'LCA_results');
		expect(model.stages.lca.n).toBe(lcaA.length);
		expect(model.stages.lca.agreed).toBe(0);
		const text = await runCliInProcess(['results', '--output-root', root, '--judges', 'r1,r1-j2']);
		expect(text.stdout).toContain('lca confusion (rows: judge A, columns: judge B)');
		expect(text.stdout).toContain('Rank stability needs two models or more with both runs.');
		// Beside κ: QWK for the ordinal LJP verdicts only, AC1 and per-label agreement (issue 33, 11).
		expect(text.stdout).toMatch(/κ \[95% CI\]\s+QWK\s+AC1\s+Per label\s+Unpaired/);
		expect(text.stdout).toMatch(/lca\s+\d+\s+0\.0000\s+.*clarification \S+, judgment \S+/);
		const ljp = Object.entries(
			(JSON.parse(r.stdout) as { judges: { models: { stages: Record<string, object> }[] } }).judges
				.models[0].stages
		);
		for (const [stage, s] of ljp) {
			if (stage.startsWith('ljp')) expect(s).toHaveProperty('qwk');
			else expect(s).not.toHaveProperty('qwk');
			expect(s).toHaveProperty('ac1');
		}
		expect(ljp.some(([stage]) => stage.startsWith('ljp'))).toBe(true);
	});

	it('killed mid-way, resumes to the files of an uninterrupted re-judge', async () => {
		const killed = join(tmp, 'killed');
		const whole = join(tmp, 'whole');
		await simulatedSource(killed);
		await cp(killed, whole, { recursive: true });
		const judge = byTask(contraryJudgeScript);
		let child: ChildProcess | null = null;
		let seen = 0;
		let crash = true;
		// One case at a time: the fifth judge call is case 3's LCA, after cases 1 and 2 are saved.
		const handler: Handler = async (request) => {
			seen++;
			if (!crash || seen < 5) return judge(request);
			child?.kill('SIGKILL');
			return { ...(await judge(request)), delayMs: 5000 } as Reply;
		};
		server = await startFakeOpenAI({ handler });
		const stopped = await runCliAsProcess(
			rejudgeArgs(killed, server.baseURL),
			{},
			(c) => (child = c)
		);
		expect(stopped.code).toBe(137);
		// The same endpoint (the manifest records it), now answering at once.
		crash = false;
		const before = server.chatRequests.length;
		const resumed = await runCliInProcess(rejudgeArgs(killed, server.baseURL));
		expect(resumed.code, resumed.stderr + resumed.stdout).toBe(0);
		expect(resumed.stdout).toContain('Resumed run r1-j2');
		expect(resumed.stdout).toContain('gen: 3 cases (1 generated, 2 resumed)');
		const rest = server.chatRequests.length - before;
		const reference = await runCliInProcess(rejudgeArgs(whole, server.baseURL));
		expect(reference.code, reference.stderr).toBe(0);
		// The resume asked only for what the killed run had not saved: cases 1 and 2's LCA.
		expect(rest).toBe(server.chatRequests.length - before - rest - 4);
		for (const file of [...SHARED, ...JUDGED]) {
			expect(await fileText(killed, 'r1-j2', file)).toBe(await fileText(whole, 'r1-j2', file));
		}
	});
});

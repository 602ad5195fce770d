/**
 * The generation commands end to end: the real CLI handlers, the real OpenAI client over HTTP
 * to the fake server (answering with the simulated provider), and FsStore on a temp folder.
 */
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { modelDirName } from '../../../src/lib/core/layout';
import {
	DEFAULT_PROMPT_PACK,
	exportPromptPack,
	promptsSha256
} from '../../../src/lib/core/prompts';
import { EDITED_DEFAULT_NAME, namedForEdits } from '../../../src/lib/state/pack-naming';
import { runArgs, runCliInProcess } from '../../cli/run-cli';
import { simulatedScript } from '../../engine/simulated-script';
import { byTask } from '../../fake-openai/by-task';
import {
	startFakeOpenAI,
	type FakeOpenAI,
	type FakeRequest,
	type Reply
} from '../../fake-openai/server';

const CANARY = 'sk-canary-7f3a9c1e5b2d4f60a8';
const DATASET = resolve('tests/fixtures/engine/three-cases.json');
const MODELS = [
	'--model',
	'eval-model',
	'--user-model',
	'user-model',
	'--judge-model',
	'judge-model'
];
const answer = byTask(simulatedScript);

let server: FakeOpenAI;
let tmp: string;
/** A test's fault injection; `undefined` lets the simulated answer through. */
let fault: (req: FakeRequest) => Reply | undefined = () => undefined;

beforeAll(async () => {
	server = await startFakeOpenAI({
		requireKey: CANARY,
		knownModels: ['eval-model', 'user-model', 'judge-model'],
		handler: (req) => fault(req) ?? answer(req)
	});
	tmp = await mkdtemp(join(tmpdir(), 'lexpilot-cli-'));
});

afterAll(async () => {
	await server.close();
	await rm(tmp, { recursive: true, force: true });
});

function cli(command: string, root: string, extra: string[] = [], env?: Record<string, string>) {
	const args = runArgs(
		command,
		{ dataset: DATASET, root },
		// A simulated run's user and judge are simulated: it takes no real ids for them.
		...(extra.includes('--simulated') ? MODELS.slice(0, 2) : MODELS),
		...extra
	);
	return runCliInProcess(args, {
		env: env ?? { OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: CANARY },
		cwd: tmp
	});
}

async function filesUnder(root: string): Promise<Map<string, string>> {
	const out = new Map<string, string>();
	const entries = await readdir(root, { recursive: true, withFileTypes: true });
	for (const e of entries) {
		if (!e.isFile()) continue;
		const path = join(e.parentPath, e.name);
		out.set(path.slice(root.length + 1), await readFile(path, 'utf8'));
	}
	return out;
}

/** Stage files only: manifests hold their creation time. */
async function stageFiles(root: string): Promise<[string, string][]> {
	return [...(await filesUnder(root))].filter(([p]) => !p.startsWith('runs/')).sort();
}

const jsonl = (text: string) =>
	text
		.trimEnd()
		.split('\n')
		.map((l) => JSON.parse(l));

describe('generation commands over HTTP', { timeout: 30_000 }, () => {
	let root: string;

	beforeAll(async () => {
		root = join(tmp, 'clean');
		for (const command of ['gen', 'dcg', 'ljp']) {
			const result = await cli(command, root);
			expect(result.code, result.stderr).toBe(0);
		}
	});

	it('writes the canonical layout with every stage file', async () => {
		const dir = await modelDirName('eval-model');
		const files = [...(await filesUnder(root)).keys()].filter((p) => !p.endsWith('.lock')).sort();
		expect(files).toEqual(
			[
				`runs/r1/${dir}/manifest.json`,
				// Beside the manifest, not a canonical stage file: one line per model call.
				`runs/r1/${dir}/calls.jsonl`,
				// Beside the manifest too: the resume seals of the stages that ran to their end.
				`runs/r1/${dir}/.resume-seals.json`,
				`AwN_gen/r1/${dir}/a1.jsonl`,
				`AwN_gen/r1/${dir}/interaction.jsonl`,
				`Force_ask_gen/r1/${dir}/force_ask.jsonl`,
				`Force_judge_gen/r1/${dir}/a1_direct.jsonl`,
				`Force_judge_gen/r1/${dir}/a1_force_judge.jsonl`,
				...['LCA_results', 'DCG_results', 'LJP_direct', 'LJP_gold', 'LJP_interaction'].map(
					(f) => `eval_results/r1/${dir}/${f}.jsonl`
				)
			].sort()
		);
		const manifest = JSON.parse(await readFile(join(root, `runs/r1/${dir}/manifest.json`), 'utf8'));
		expect(manifest.simulated).toBe(false);
		expect(manifest.endpoints).toEqual({
			evaluated: server.baseURL,
			user: server.baseURL,
			judge: server.baseURL
		});
		// case #1's case_number is the integer 2 in the file and stays one (PROTOCOL.md §5).
		expect(manifest.dataset.selected_case_numbers).toEqual(['E-001', 2, 'E-003']);
	});

	it('sends one user message per call, with the role model, temperature and n = 1', () => {
		const chats = server.chatRequests;
		expect(chats.length).toBeGreaterThan(0);
		for (const req of chats) {
			const body = req.body!;
			expect(body.messages).toEqual([{ role: 'user', content: req.prompt }]);
			expect(body.n).toBe(1);
			expect(body.max_tokens).toBe(8192);
			expect(body.temperature).toBe(req.model === 'judge-model' ? 0.1 : 0.7);
			expect(req.headers.authorization).toBe(`Bearer ${CANARY}`);
			expect(req.url).not.toContain(CANARY);
		}
		expect(new Set(chats.map((r) => r.model))).toEqual(
			new Set(['eval-model', 'user-model', 'judge-model'])
		);
	});

	it('never writes the API key to any file', async () => {
		for (const [path, text] of await filesUnder(root)) expect(text, path).not.toContain(CANARY);
	});

	it('keeps claim order of integer-like claim keys', async () => {
		const dir = await modelDirName('eval-model');
		for (const file of ['LJP_direct', 'LJP_gold', 'LJP_interaction']) {
			const records = jsonl(
				await readFile(join(root, `eval_results/r1/${dir}/${file}.jsonl`), 'utf8')
			);
			const second = records.find((r) => r.case_number === 2);
			expect(second.claims).toEqual(['2', '1', '10']);
			expect(second.gold).toEqual(['部分支持', '驳回', '支持']);
		}
	});

	it('makes no model call when run again', async () => {
		const before = server.chatRequests.length;
		for (const command of ['gen', 'dcg', 'ljp']) {
			const result = await cli(command, root);
			expect(result.code, result.stderr).toBe(0);
			expect(result.stdout).toContain('Resumed run r1');
		}
		expect(server.chatRequests.length).toBe(before);
	});

	it('refuses a changed setting under the same run id (exit 2), before any call', async () => {
		const before = server.chatRequests.length;
		const result = await cli('gen', root, ['--temperature', '0.5']);
		expect(result.code).toBe(2);
		expect(result.stderr).toMatch(/settings\.temperature: saved 0\.7, now 0\.5/);
		expect(result.stderr).toContain('--run-id');
		expect(server.chatRequests.length).toBe(before);
	});

	it('stops on an outage with exit 1, keeps finished cases, and a rerun completes to the clean result', async () => {
		const broken = join(tmp, 'outage');
		// Every call about the traffic accident (case 3) fails; no retry, one case at a time.
		fault = (req) => (req.prompt.includes('撞') ? { status: 503 } : undefined);
		const failed = await cli('gen', broken, ['--retries', '0', '--concurrency', '1']);
		fault = () => undefined;
		expect(failed.code).toBe(1);
		expect(failed.stderr).toContain('gen stopped at case #2 (case_number E-003)');
		expect(failed.stderr).toContain('2 of 3 cases are saved');
		const dir = await modelDirName('eval-model');
		const saved = jsonl(
			await readFile(join(broken, `AwN_gen/r1/${dir}/interaction.jsonl`), 'utf8')
		);
		expect(saved.map((r) => r.case_number)).toEqual(['E-001', 2]);

		const before = server.chatRequests.length;
		// More patience than the failed call: retries, timeout and concurrency are operational
		// (PROTOCOL.md §6), recorded in the manifest's history, never a reason to refuse.
		const patient = ['--retries', '5', '--timeout', '60', '--concurrency', '2'];
		const resumed = await cli('gen', broken, patient);
		expect(resumed.code, resumed.stderr).toBe(0);
		expect(resumed.stdout).toContain('Resumed run r1');
		const manifest = JSON.parse(
			await readFile(join(broken, `runs/r1/${dir}/manifest.json`), 'utf8')
		);
		expect(manifest.settings).toMatchObject({ retries: 0, timeout_s: 120 });
		expect(
			manifest.operational_history.map((e: Record<string, unknown>) => [
				e.retries,
				e.timeout_s,
				e.concurrency
			])
		).toEqual([
			[0, 120, 1],
			[5, 60, 2]
		]);
		const calls = server.chatRequests.slice(before);
		// Only case 3 is generated again: every new call carries its text or its own responses.
		expect(calls.some((r) => r.prompt!.includes('表哥') || r.prompt!.includes('押金'))).toBe(false);
		const clean = (await stageFiles(root)).filter(
			([p]) => p.startsWith('AwN_gen') || p.includes('LCA_')
		);
		expect(await stageFiles(broken)).toEqual(clean);
	});

	it('honours Retry-After on 429 and rejects truncated and empty outputs', async () => {
		const dir = join(tmp, 'flaky');
		let calls = 0;
		fault = () => {
			calls++;
			if (calls === 1) return { status: 429, headers: { 'Retry-After': '1' } };
			if (calls === 2) return { content: '根据您提供的情况，我认为', finish_reason: 'length' };
			if (calls === 4) return { content: '   ' };
			return undefined;
		};
		const started = Date.now();
		const result = await cli('ljp-direct', dir, ['--limit', '1', '--retries', '2']);
		fault = () => undefined;
		expect(result.code, result.stderr).toBe(0);
		expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
		expect(result.stderr).toMatch(/retry: case E-001, evaluated model eval-model: .*429.*in 1\.0s/);
		const md = await modelDirName('eval-model');
		const [direct] = jsonl(
			await readFile(join(dir, `Force_judge_gen/r1/${md}/a1_direct.jsonl`), 'utf8')
		);
		expect(direct.response).not.toBe('根据您提供的情况，我认为');
		expect(direct.response.trim()).not.toBe('');
		const [scored] = jsonl(
			await readFile(join(dir, `eval_results/r1/${md}/LJP_direct.jsonl`), 'utf8')
		);
		expect(scored.predicted).toHaveLength(2);
	});

	it('fails with exit 1 and the raw output when the judge never answers in JSON', async () => {
		const dir = join(tmp, 'bad-judge');
		fault = (req) =>
			req.model === 'judge-model' ? { content: '我认为应当部分支持。' } : undefined;
		const result = await cli('ljp-gold', dir, ['--limit', '1']);
		fault = () => undefined;
		expect(result.code).toBe(1);
		expect(result.stderr).toContain('ljp-gold stopped at case #0 (case_number E-001)');
		expect(result.stderr).toContain('raw output:\n我认为应当部分支持。');
	});
});

describe('generation commands, other paths', { timeout: 30_000 }, () => {
	it('--simulated runs offline without any endpoint or key', async () => {
		const root = join(tmp, 'simulated');
		const before = server.requests.length;
		const result = await cli('gen', root, ['--model', 'simulated', '--simulated'], {});
		expect(result.code, result.stderr).toBe(0);
		expect(server.requests.length).toBe(before);
		const dir = await modelDirName('simulated');
		const manifest = JSON.parse(await readFile(join(root, `runs/r1/${dir}/manifest.json`), 'utf8'));
		expect(manifest.simulated).toBe(true);
		expect(manifest.endpoints.evaluated).toBe('simulated://offline');
		expect(manifest.models).toEqual({
			evaluated: 'simulated',
			user: 'simulated-user',
			judge: 'simulated-judge'
		});
	});

	it('--simulated refuses a real user or judge model id, naming the flag', async () => {
		for (const flag of ['--user-model', '--judge-model']) {
			const root = join(tmp, `simulated${flag}`);
			const result = await cli('gen', root, ['--simulated', flag, 'deepseek-chat'], {});
			expect(result.code).toBe(2);
			expect(result.stderr).toContain(`${flag} names a real model; a --simulated run's`);
		}
	});

	it('--prompts runs with an edited pack, recorded by its hash; a broken pack exits 2 naming the file', async () => {
		const root = join(tmp, 'prompts');
		// Edited as the Prompts page edits it: the default pack's name marked edited.
		const edited = namedForEdits({
			...DEFAULT_PROMPT_PACK,
			templates: {
				...DEFAULT_PROMPT_PACK.templates,
				force_judge: `请仔细阅读。${DEFAULT_PROMPT_PACK.templates.force_judge}`
			}
		});
		expect(edited.name).toBe(EDITED_DEFAULT_NAME);
		const packFile = join(tmp, 'pack.json');
		await writeFile(packFile, exportPromptPack(edited));
		// Relative to the user's directory (the CLI's cwd, here tmp), not the package root.
		const result = await cli('ljp-direct', root, ['--simulated', '--prompts', 'pack.json'], {});
		expect(result.code, result.stderr).toBe(0);
		const dir = await modelDirName('eval-model');
		const manifest = JSON.parse(await readFile(join(root, `runs/r1/${dir}/manifest.json`), 'utf8'));
		expect(manifest.prompts_sha256).toBe(await promptsSha256(edited));
		expect(manifest.prompts_sha256).not.toBe(await promptsSha256(DEFAULT_PROMPT_PACK));
		const direct = await readFile(join(root, `Force_judge_gen/r1/${dir}/a1_direct.jsonl`), 'utf8');
		expect(direct.split('\n').filter(Boolean)).toHaveLength(3);

		// The same run id with the default pack is refused: the prompts changed.
		const again = await cli('ljp-direct', root, ['--simulated'], {});
		expect(again.code).toBe(2);
		expect(again.stderr).toMatch(/prompts_sha256|code_sha256/);

		await writeFile(packFile, '{"name": "x"');
		const broken = await cli(
			'ljp-direct',
			join(tmp, 'prompts-broken'),
			['--simulated', '--prompts', 'pack.json'],
			{}
		);
		expect(broken.code).toBe(2);
		expect(broken.stderr).toContain(`--prompts pack.json: prompt pack: not valid JSON`);
	});

	const usage = [
		{
			what: 'no run id',
			args: ['gen', '--dataset', DATASET, '--model', 'm'],
			message: /no run id/
		},
		{
			what: 'an invalid dataset',
			args: [
				'dcg',
				'--dataset',
				resolve('tests/fixtures/datasets/broken.json'),
				'--model',
				'm',
				'--run-id',
				'r1'
			],
			message: /is not a valid LexPilot dataset/
		},
		{
			what: 'an unknown flag',
			args: ['ljp', '--dataset', DATASET, '--model', 'm', '--run-id', 'r1', '--bogus'],
			message: /bogus/
		}
	];
	it.each(usage)('exits 2 on $what', async ({ args, message }) => {
		const { code, stderr } = await runCliInProcess(args, { env: {}, cwd: tmp });
		expect(code).toBe(2);
		expect(stderr).toMatch(message);
	});

	it('ljp-interaction without gen exits 2 and says to run gen first', async () => {
		const result = await cli('ljp-interaction', join(tmp, 'no-gen'));
		expect(result.code).toBe(2);
		expect(result.stderr).toMatch(/needs AwN_gen\/r1\/.*interaction\.jsonl complete.*Run "gen"/s);
	});

	it('ljp without gen saves Direct and Gold, then exits 2 with the interaction error', async () => {
		const root = join(tmp, 'ljp-no-gen');
		const result = await cli('ljp', root);
		expect(result.code).toBe(2);
		expect(result.stderr).toMatch(
			/error: ljp-interaction needs AwN_gen\/r1\/.*interaction\.jsonl complete.*Run "gen"/s
		);
		expect(result.stderr).toContain(
			'ljp-direct and ljp-gold completed: 3 of 3 cases are saved in each.'
		);
		const dir = await modelDirName('eval-model');
		for (const file of ['LJP_direct', 'LJP_gold']) {
			const text = await readFile(join(root, `eval_results/r1/${dir}/${file}.jsonl`), 'utf8');
			expect(text.trimEnd().split('\n'), file).toHaveLength(3);
		}
	});
});

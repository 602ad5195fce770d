/**
 * Canary keys through the CLI (CLI side). Distinctive keys in the environment
 * (OPENAI_API_KEY and LEXPILOT_*_API_KEY) must reach the provider only as each role's
 * `Authorization: Bearer` header, and never appear in stdout, stderr or any file under the
 * output root — also when the provider echoes the key back in its error bodies, as some do.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runArgs, runCliAsProcess, runCliInProcess } from '../../cli/run-cli';
import { simulatedScript } from '../../engine/simulated-script';
import { byTask } from '../../fake-openai/by-task';
import {
	startFakeOpenAI,
	type FakeOpenAI,
	type FakeRequest,
	type Reply
} from '../../fake-openai/server';
import { DATASET, filesUnder } from '../faults/harness';

/** Every canary holds this, so one search finds any of them, whole or in part. */
const MARK = 'canary-7f3a9c';
const KEYS = {
	/** OPENAI_API_KEY: the evaluated model falls back to it. */
	default: `sk-${MARK}-default-1b2d4f6a8c0e`,
	user: `sk-${MARK}-user-3c5e7a9b1d2f`,
	judge: `sk-${MARK}-judge-5e7a9c1b3d4f`
};
const MODELS = { evaluated: 'eval-model', user: 'user-model', judge: 'judge-model' };
/** The key each model's requests must carry. */
const KEY_OF_MODEL: Record<string, string> = {
	[MODELS.evaluated]: KEYS.default,
	[MODELS.user]: KEYS.user,
	[MODELS.judge]: KEYS.judge
};

const simulated = byTask(simulatedScript);

function env(server: FakeOpenAI): Record<string, string> {
	return {
		OPENAI_BASE_URL: server.baseURL,
		OPENAI_API_KEY: KEYS.default,
		LEXPILOT_USER_API_KEY: KEYS.user,
		LEXPILOT_JUDGE_API_KEY: KEYS.judge,
		LEXPILOT_MODEL: MODELS.evaluated,
		LEXPILOT_USER_MODEL: MODELS.user,
		LEXPILOT_JUDGE_MODEL: MODELS.judge
	};
}

// Its stderr is not a TTY, so every retry is logged with its reason: the likeliest place for an echo.
const cli = (args: string[], server: FakeOpenAI) => runCliInProcess(args, { env: env(server) });

const stageArgs = (command: string, root: string, ...more: string[]) =>
	runArgs(command, { dataset: DATASET, root, runId: 'canary' }, '--limit', '2', ...more);

/** The provider's error, quoting the Authorization header it got, as careless providers do. */
function echo(status: number, req: FakeRequest, words: string): Reply {
	return {
		status,
		headers: { 'Retry-After': '0' },
		body: {
			error: {
				message: `${words}: ${req.headers.authorization ?? '(none)'}`,
				type: 'invalid_request_error'
			}
		}
	};
}

/** Each place a key must not be: a name and its text. */
function leaks(places: Record<string, string>): string[] {
	return Object.entries(places)
		.filter(([, text]) => text.includes(MARK))
		.map(([place, text]) => {
			const at = text.indexOf(MARK);
			return `${place}: …${text.slice(Math.max(0, at - 60), at + 40)}…`;
		});
}

async function filesLeaking(root: string): Promise<string[]> {
	const files = await filesUnder(root);
	expect(files.size).toBeGreaterThan(0);
	return leaks(Object.fromEntries(files));
}

/**
 * Every chat request carried its model's key as a bearer token, and the canary nowhere else:
 * not in the URL, the body or another header.
 */
function checkRequests(server: FakeOpenAI): void {
	expect(server.chatRequests.length).toBeGreaterThan(0);
	for (const r of server.chatRequests) {
		expect(r.headers.authorization, `model ${r.model}`).toBe(`Bearer ${KEY_OF_MODEL[r.model!]}`);
		const { authorization, ...others } = r.headers;
		void authorization;
		expect(
			leaks({ url: r.url, body: JSON.stringify(r.body), headers: JSON.stringify(others) })
		).toEqual([]);
	}
}

describe('canary keys through the CLI', () => {
	const servers: FakeOpenAI[] = [];
	const start = async (handler: (req: FakeRequest) => Reply | Promise<Reply>) => {
		const server = await startFakeOpenAI({ handler });
		servers.push(server);
		return server;
	};
	const newRoot = () => mkdtemp(join(tmpdir(), 'lexpilot-canary-'));
	afterAll(async () => {
		for (const s of servers) await s.close();
	});

	it('a full run (gen, dcg, ljp, results) sends each key only as its role’s bearer token and prints or saves none', async () => {
		// The first attempt of every call fails with the key echoed back, so every retry line of
		// the log quotes the provider's message.
		const seen = new Set<string>();
		const server = await start((req) => {
			const id = `${req.model}\u0000${req.prompt}`;
			if (seen.has(id)) return simulated(req);
			seen.add(id);
			return echo(503, req, 'Overloaded; request authorised with');
		});
		const root = await newRoot();
		const outputs: Record<string, string> = {};
		for (const command of ['gen', 'dcg', 'ljp']) {
			const out = await cli(stageArgs(command, root), server);
			expect(out.code, out.stderr).toBe(0);
			outputs[`${command} stdout`] = out.stdout;
			outputs[`${command} stderr`] = out.stderr;
		}
		for (const args of [[], ['--json'], ['--run-id', 'canary', '--model', MODELS.evaluated]]) {
			const out = await cli(['results', '--output-root', root, ...args], server);
			expect(out.code, out.stderr).toBe(0);
			outputs[`results ${args.join(' ')} stdout`] = out.stdout;
			outputs[`results ${args.join(' ')} stderr`] = out.stderr;
		}
		// The echo did reach the log, redacted: the test would catch an unredacted one.
		expect(outputs['gen stderr']).toMatch(
			/retry: .*Overloaded; request authorised with: Bearer \[key\]/
		);
		expect(leaks(outputs)).toEqual([]);
		expect(await filesLeaking(root)).toEqual([]);
		checkRequests(server);
		expect(new Set(server.chatRequests.map((r) => r.model))).toEqual(
			new Set(Object.values(MODELS))
		);
	});

	// Each role's key refused in turn, by a provider that quotes it in the 401/403 body.
	it.each([
		{ command: 'gen', refused: MODELS.judge, status: 401 },
		{ command: 'dcg', refused: MODELS.user, status: 401 },
		{ command: 'ljp-direct', refused: MODELS.evaluated, status: 403 }
	])(
		'$command stops on a $status for $refused that quotes the key, and prints it redacted',
		async ({ command, refused, status }) => {
			const server = await start((req) =>
				req.model === refused ? echo(status, req, 'Incorrect API key provided') : simulated(req)
			);
			const root = await newRoot();
			const out = await cli(stageArgs(command, root), server);
			expect(out.code).toBe(1);
			expect(out.stderr).toContain('Incorrect API key provided: Bearer [key]');
			// Two cases run at once, so either may be the one that stops the stage.
			expect(out.stderr).toMatch(/stopped at case #[01] \(case_number (E-001|2)\)/);
			const results = await cli(['results', '--output-root', root, '--json'], server);
			expect(
				leaks({ stdout: out.stdout, stderr: out.stderr, results: results.stdout + results.stderr })
			).toEqual([]);
			expect(await filesLeaking(root)).toEqual([]);
			checkRequests(server);
		}
	);

	// Keys pasted with a line end or a stray space: the header the provider echoes is trimmed,
	// so redaction must still find the key in it.
	it.each([
		['a trailing CR LF', `${KEYS.default}\r\n`],
		['a leading space', ` ${KEYS.default}`],
		['a non-ASCII character (cannot be sent as a header)', `${KEYS.default}\u200b`]
	])('a key with %s is not printed either', async (_name, key) => {
		const server = await start((req) => echo(401, req, 'Incorrect API key provided'));
		const out = await runCliInProcess(stageArgs('gen', await newRoot(), '--retries', '0'), {
			env: { ...env(server), OPENAI_API_KEY: key }
		});
		const text = out.stdout + out.stderr;
		expect(out.code).toBe(1);
		expect(text).toMatch(/error: gen stopped at case/);
		expect(leaks({ output: text })).toEqual([]);
	});

	describe('as a process (npm run lexpilot)', () => {
		let server: FakeOpenAI;
		beforeAll(async () => {
			server = await start((req) => echo(401, req, 'Incorrect API key provided'));
		});

		it('a refused key is not printed by the real binary either', async () => {
			const root = await newRoot();
			const out = await runCliAsProcess(stageArgs('gen', root), env(server));
			expect(out.code, out.stderr).toBe(1);
			expect(out.stderr).toContain('Bearer [key]');
			expect(leaks({ stdout: out.stdout, stderr: out.stderr })).toEqual([]);
			expect(await filesLeaking(root)).toEqual([]);
			checkRequests(server);
		});
	});
});

/**
 * Canary keys and the call log. Every model call is logged to
 * runs/<run-id>/<model>/calls.jsonl with its prompt, answer and the cause of each failed
 * attempt. A provider that echoes the key in its error bodies (as some do) must not get it into
 * the log: the log keeps the echo, redacted, and holds no key anywhere.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runArgs, runCliInProcess } from '../../cli/run-cli';
import { simulatedScript } from '../../engine/simulated-script';
import { byTask } from '../../fake-openai/by-task';
import { startFakeOpenAI, type FakeOpenAI, type FakeRequest } from '../../fake-openai/server';
import { DATASET, filesUnder } from '../faults/harness';
import { parseCallLog } from '../../../src/lib/core/calls/log';

const MARK = 'canary-c4115c';
const KEYS = {
	default: `sk-${MARK}-default-9a8b7c6d5e4f`,
	user: `sk-${MARK}-user-1f2e3d4c5b6a`,
	judge: `sk-${MARK}-judge-0a1b2c3d4e5f`
};
const simulated = byTask(simulatedScript);

describe('the call log holds no key', () => {
	let server: FakeOpenAI;
	afterAll(async () => server?.close());

	it('keeps every call and every echoed error, redacted, and no canary key', async () => {
		// The first attempt of every call fails with the bearer token quoted back.
		const seen = new Set<string>();
		server = await startFakeOpenAI({
			handler: (req: FakeRequest) => {
				const id = `${req.model}\u0000${req.prompt}`;
				if (seen.has(id)) return simulated(req);
				seen.add(id);
				return {
					status: 503,
					headers: { 'Retry-After': '0' },
					body: { error: { message: `Overloaded for ${req.headers.authorization ?? '(none)'}` } }
				};
			}
		});
		const root = await mkdtemp(join(tmpdir(), 'lexpilot-calls-canary-'));
		const env = {
			OPENAI_BASE_URL: server.baseURL,
			OPENAI_API_KEY: KEYS.default,
			LEXPILOT_USER_API_KEY: KEYS.user,
			LEXPILOT_JUDGE_API_KEY: KEYS.judge,
			LEXPILOT_MODEL: 'eval-model',
			LEXPILOT_USER_MODEL: 'user-model',
			LEXPILOT_JUDGE_MODEL: 'judge-model'
		};
		for (const command of ['gen', 'dcg', 'ljp']) {
			const out = await runCliInProcess(
				runArgs(command, { dataset: DATASET, root, runId: 'canary' }, '--limit', '2'),
				{ env }
			);
			expect(out.code, out.stderr).toBe(0);
		}
		const files = await filesUnder(root);
		const [path, text] = [...files].find(([p]) => p.endsWith('/calls.jsonl'))!;
		const calls = parseCallLog(text, path);
		// One line per call that reached the provider, each retried once.
		expect(calls.length).toBe(server.chatRequests.length / 2);
		expect(calls.every((c) => c.retries === 1 && c.attempts[0].status === 503)).toBe(true);
		// The echo reached the log, redacted: the test would catch an unredacted one.
		expect(calls[0].attempts[0].reason).toMatch(/Overloaded for Bearer \[key\]/);
		for (const [file, content] of files) expect(content.includes(MARK), file).toBe(false);
	});
});

/**
 * Issue 14, item 7: secrets in a base URL. User-info (`http://user:pass@host/v1`) is refused
 * with a message saying to use the key instead, in the CLI, in Test connection and in the
 * Models page's checks; a query (`…/v1?token=…`) is sent with every request but its values are
 * never written (manifest) or printed (names kept). One core module serves both.
 */
import { mkdtemp, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkBaseUrl, publicBaseUrl, sdkTarget } from '../../../src/lib/core/model/base-url';
import { testConnection } from '../../../src/lib/core/model/diagnose';
import {
	defaultModelSettings,
	runIdentity,
	settingsProblems
} from '../../../src/lib/state/model-settings';
import { runCliInProcess } from '../../cli/run-cli';
import { simulatedScript } from '../../engine/simulated-script';
import { byTask } from '../../fake-openai/by-task';
import { startFakeOpenAI, type FakeOpenAI } from '../../fake-openai/server';
import { DATASET, filesUnder } from '../faults/harness';

const PASSWORD = 'hunter2-pw-77';
const TOKEN = 'tok-9f8e7d6c5b4a';
let server: FakeOpenAI | null = null;
afterEach(async () => {
	await server?.close();
	server = null;
});

describe('the base-url rules', () => {
	it('refuses user-info without repeating the password, and says what to do', () => {
		const r = checkBaseUrl(`http://me:${PASSWORD}@example.test/v1`);
		expect(r.ok).toBe(false);
		const problem = (r as { problem: string }).problem;
		expect(problem).toMatch(/^carries a user name and password \("http:\/\/…@example\.test\/v1"\)/);
		expect(problem).toMatch(/give the secret as the API key instead/);
		expect(problem).not.toContain(PASSWORD);
		expect(checkBaseUrl('http://me@example.test/v1').ok).toBe(false);
	});

	it('accepts http(s) URLs with a query, and trims trailing slashes', () => {
		expect(checkBaseUrl(' https://h.test/v1/ ')).toEqual({ ok: true, url: 'https://h.test/v1' });
		expect(checkBaseUrl(`https://h.test/v1?token=${TOKEN}`).ok).toBe(true);
	});

	it('shows query names without values, and no key', () => {
		expect(publicBaseUrl(`https://h.test/v1?token=${TOKEN}&api-version=2024-02-01`)).toBe(
			'https://h.test/v1?token=***&api-version=***'
		);
		expect(publicBaseUrl('https://h.test/v1')).toBe('https://h.test/v1');
		expect(publicBaseUrl('https://h.test/keys/sk-abcdefgh12345/v1', ['sk-abcdefgh12345'])).toBe(
			'https://h.test/keys/[key]/v1'
		);
	});

	it('gives the SDK the query apart, so paths go before it', () => {
		expect(sdkTarget(`http://h.test/v1?token=${TOKEN}`)).toEqual({
			baseURL: 'http://h.test/v1',
			defaultQuery: { token: TOKEN }
		});
	});
});

describe('the CLI', () => {
	const gen = async (baseURL: string, root: string) =>
		runCliInProcess(
			['gen', '--dataset', DATASET, '--output-root', root, '--run-id', 'u', '--limit', '1'],
			{
				env: {
					OPENAI_BASE_URL: baseURL,
					OPENAI_API_KEY: 'sk-url-test-0123456789',
					LEXPILOT_MODEL: 'eval-model'
				}
			}
		);

	it('refuses user-info in OPENAI_BASE_URL before any call (exit 2), never printing it', async () => {
		server = await startFakeOpenAI({ handler: byTask(simulatedScript) });
		const root = join(await mkdtemp(join(tmpdir(), 'lexpilot-url-')), 'out');
		const url = server.baseURL.replace('http://', `http://me:${PASSWORD}@`);
		const r = await gen(url, root);
		expect(r.code).toBe(2);
		expect(r.stderr).toMatch(/error: OPENAI_BASE_URL carries a user name and password/);
		expect(r.stderr).toMatch(/API key instead/);
		expect(r.stdout + r.stderr).not.toContain(PASSWORD);
		expect(server.requests).toHaveLength(0);
		await expect(readdir(root)).rejects.toMatchObject({ code: 'ENOENT' });
	});

	it('sends a query token with every request but writes and prints only its name', async () => {
		server = await startFakeOpenAI({ handler: byTask(simulatedScript) });
		const root = await mkdtemp(join(tmpdir(), 'lexpilot-url-'));
		const r = await gen(`${server.baseURL}?token=${TOKEN}`, root);
		expect(r.code, r.stderr).toBe(0);
		const chats = server.requests.filter((q) => q.url.includes('/chat/completions'));
		expect(chats.length).toBeGreaterThan(0);
		for (const q of chats) expect(q.url).toBe(`/v1/chat/completions?token=${TOKEN}`);
		const files = await filesUnder(root);
		const manifest = [...files].find(([p]) => p.endsWith('manifest.json'))![1];
		expect(JSON.parse(manifest).endpoints.evaluated).toBe(`${server.baseURL}?token=***`);
		for (const [path, text] of files) expect(text, path).not.toContain(TOKEN);
		expect(r.stdout + r.stderr).not.toContain(TOKEN);
	});

	it('a failing call names the endpoint without the token', async () => {
		server = await startFakeOpenAI({ handler: () => ({ status: 404 }) });
		const root = await mkdtemp(join(tmpdir(), 'lexpilot-url-'));
		const r = await gen(`${server.baseURL}?token=${TOKEN}`, root);
		expect(r.code).toBe(1);
		expect(r.stderr).toContain(`at ${server.baseURL}?token=***`);
		expect(r.stdout + r.stderr).not.toContain(TOKEN);
	});
});

describe('the browser', () => {
	it('the Models page checks refuse user-info, naming the field', () => {
		const s = defaultModelSettings();
		s.roles.evaluated.model = 'm';
		s.defaults.baseURL = `https://me:${PASSWORD}@api.example.test/v1`;
		s.roles.judge.useDefaultBaseURL = false;
		s.roles.judge.baseURL = `https://judge@api.example.test/v1`;
		const problems = settingsProblems(s);
		expect(problems).toEqual([
			{
				field: 'defaults.baseURL',
				message: expect.stringMatching(/^Default base URL carries a user name and password/)
			},
			{
				field: 'judge.baseURL',
				message: expect.stringMatching(/^Judge: base URL carries a user name \(/)
			}
		]);
		expect(JSON.stringify(problems)).not.toContain(PASSWORD);
	});

	it('a run records base URLs without query values or keys', () => {
		const s = defaultModelSettings();
		s.roles.evaluated.model = 'm';
		s.defaults.baseURL = `https://api.example.test/v1?token=${TOKEN}`;
		expect(runIdentity(s).endpoints.evaluated).toBe('https://api.example.test/v1?token=***');
	});

	it('Test connection refuses user-info without calling, and hides a query token', async () => {
		server = await startFakeOpenAI({ handler: () => ({ status: 401 }) });
		const refused = await testConnection({
			baseURL: server.baseURL.replace('http://', `http://me:${PASSWORD}@`),
			apiKey: '',
			model: 'm'
		});
		expect(refused.message).toMatch(/^The base URL carries a user name and password/);
		expect(JSON.stringify(refused)).not.toContain(PASSWORD);
		expect(server.requests).toHaveLength(0);
		const result = await testConnection({
			baseURL: `${server.baseURL}?token=${TOKEN}`,
			apiKey: '',
			model: 'm'
		});
		expect(result.status).toBe('auth');
		expect(server.requests.at(-1)!.url).toBe(`/v1/chat/completions?token=${TOKEN}`);
		expect(JSON.stringify(result)).not.toContain(TOKEN);
		expect(result.message).toContain('?token=***');
	});
});

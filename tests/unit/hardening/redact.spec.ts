/**
 * Issue 14, item 6: a key is redacted from provider text in any shape a provider may echo it:
 * whole, any run of 8 or more of its characters (the key minus its last character), its base64
 * (a `Basic` credential, at any alignment, standard or URL-safe) and its URL-encoded form. Both
 * the model client (CLI and browser runs) and Test connection (browser) apply it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { testConnection } from '../../../src/lib/core/model/diagnose';
import { createOpenAIClient } from '../../../src/lib/core/model/openai-client';
import type { ModelEvent } from '../../../src/lib/core/model/events';
import { redactKeys } from '../../../src/lib/core/text/redact';
import { startFakeOpenAI, type FakeOpenAI } from '../../fake-openai/server';

const KEY = 'sk-Zq8/pL+3vK9=mN2xR7wT';
const b64 = (s: string) => Buffer.from(s).toString('base64');
const echoes = [
	KEY,
	KEY.slice(0, -1),
	KEY.slice(3, 11),
	b64(KEY),
	b64(`user:${KEY}`),
	b64(`u:${KEY}`),
	b64(`ab:${KEY}`).replace(/\+/g, '-').replace(/\//g, '_'),
	encodeURIComponent(KEY)
];

/** Every 8-character run of `secret` found in `text`. */
function runsOf(secret: string, text: string): string[] {
	const found: string[] = [];
	for (let i = 0; i + 8 <= secret.length; i++) {
		if (text.includes(secret.slice(i, i + 8))) found.push(secret.slice(i, i + 8));
	}
	return found;
}

/** What must never show: 8+ runs of the key, of its base64 (3 alignments) or URL form. */
function leaks(text: string): string[] {
	const forms = [KEY, encodeURIComponent(KEY), b64(KEY), b64(`u:${KEY}`), b64(`ab:${KEY}`)];
	// Only the middle of a base64 form is the key's alone: its ends mix in the neighbours.
	return forms.flatMap((f, i) => runsOf(i < 2 ? f : f.slice(4, -4), text));
}

describe('redactKeys', () => {
	it.each(echoes)('removes %s', (echo) => {
		const text = `401: invalid key "${echo}" for this account`;
		const shown = redactKeys(text, [KEY]);
		expect(shown).toContain('[key]');
		expect(leaks(shown)).toEqual([]);
		expect(shown).toMatch(/^401: invalid key ".*" for this account$/);
	});

	it('leaves 7 characters of a key and unrelated text alone', () => {
		expect(redactKeys(`x ${KEY.slice(0, 7)} y`, [KEY])).toBe(`x ${KEY.slice(0, 7)} y`);
		expect(redactKeys('no secret here at all', [KEY])).toBe('no secret here at all');
	});

	it('still replaces a short key where it occurs whole', () => {
		expect(redactKeys('key abcd1 refused', ['abcd1'])).toBe('key [key] refused');
	});
});

describe('provider text shown by the client and by Test connection', () => {
	let server: FakeOpenAI;
	afterEach(() => server.close());

	const echoAll = () => ({
		status: 401,
		body: { error: { message: `bad credentials: ${echoes.join(' | ')}` } }
	});

	it('the client: failure message, retry reason and events carry no run of the key', async () => {
		server = await startFakeOpenAI({ handler: echoAll });
		const events: ModelEvent[] = [];
		const endpoint = { baseURL: server.baseURL, apiKey: KEY, model: 'm' };
		const client = createOpenAIClient(
			{ evaluated: endpoint, user: endpoint, judge: endpoint },
			{ retries: 0, onEvent: (e) => events.push(e) }
		);
		const error = await client
			.complete({
				role: 'evaluated',
				task: 'lexawn',
				caseNumber: 'C-1',
				prompt: 'hi',
				temperature: 0,
				maxTokens: 16
			})
			.catch((e: unknown) => e as Error);
		expect((error as Error).message).toContain('bad credentials: [key]');
		expect(leaks((error as Error).message)).toEqual([]);
		expect(leaks(JSON.stringify(events))).toEqual([]);
	});

	it('Test connection: message and hint carry no run of the key', async () => {
		server = await startFakeOpenAI({ handler: echoAll });
		const result = await testConnection({ baseURL: server.baseURL, apiKey: KEY, model: 'm' });
		expect(result.status).toBe('auth');
		expect(result.message).toContain('[key]');
		expect(leaks(JSON.stringify(result))).toEqual([]);
	});
});

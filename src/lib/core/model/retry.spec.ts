import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import { describe, expect, it } from 'vitest';
import { backoffDelay, classifyError, parseRetryAfter, withRetries } from './retry';

const NOW = Date.parse('2025-01-01T00:00:00Z');

describe('parseRetryAfter', () => {
	it.each([
		{ headers: {}, expected: undefined },
		{ headers: { 'retry-after': '5' }, expected: 5000 },
		{ headers: { 'retry-after': '0.5' }, expected: 500 },
		{ headers: { 'retry-after': 'Wed, 01 Jan 2025 00:00:30 GMT' }, expected: 30_000 },
		{ headers: { 'retry-after': 'Tue, 31 Dec 2024 23:59:00 GMT' }, expected: 0 },
		{ headers: { 'retry-after': 'soon' }, expected: undefined },
		{ headers: { 'retry-after-ms': '1500', 'retry-after': '9' }, expected: 1500 },
		{ headers: { 'retry-after-ms': 'x', 'retry-after': '9' }, expected: 9000 }
	])('$headers → $expected', ({ headers, expected }) => {
		expect(parseRetryAfter(new Headers(headers as Record<string, string>), () => NOW)).toBe(
			expected
		);
	});
});

describe('backoffDelay', () => {
	it.each([
		{ attempt: 1, random: 0, expected: 500 },
		{ attempt: 1, random: 1, expected: 1000 },
		{ attempt: 3, random: 0.5, expected: 3000 },
		{ attempt: 10, random: 1, expected: 30_000 }
	])('attempt $attempt, random $random → $expected ms', ({ attempt, random, expected }) => {
		expect(backoffDelay(attempt, () => random)).toBe(expected);
	});
});

const statusError = (status: number, headers: Record<string, string> = {}) =>
	APIError.generate(
		status,
		{ error: { message: `said ${status}` } },
		undefined,
		new Headers(headers)
	);

describe('classifyError', () => {
	it.each([
		{ error: statusError(400), kind: 'bad_request', retryable: false },
		{ error: statusError(401), kind: 'auth', retryable: false },
		{ error: statusError(402), kind: 'bad_request', retryable: false },
		{ error: statusError(403), kind: 'auth', retryable: false },
		{ error: statusError(404), kind: 'not_found', retryable: false },
		{ error: statusError(408), kind: 'timeout', retryable: true },
		{ error: statusError(409), kind: 'server', retryable: true },
		{ error: statusError(422), kind: 'bad_request', retryable: false },
		{ error: statusError(429), kind: 'rate_limit', retryable: true },
		{ error: statusError(500), kind: 'server', retryable: true },
		{ error: statusError(529), kind: 'server', retryable: true },
		{ error: new APIConnectionTimeoutError(), kind: 'timeout', retryable: true },
		{
			error: new APIConnectionError({ message: 'Connection error.' }),
			kind: 'unreachable',
			retryable: true
		},
		{ error: new APIUserAbortError(), kind: 'aborted', retryable: false },
		{ error: new SyntaxError('Unexpected end of JSON input'), kind: 'server', retryable: true },
		{ error: new TypeError('terminated'), kind: 'unreachable', retryable: true }
	])('$error.constructor.name $error.message → $kind', ({ error, kind, retryable }) => {
		expect(classifyError(error)).toMatchObject({ kind, retryable });
	});

	it("keeps the provider's message without the status prefix", () => {
		expect(classifyError(statusError(400)).detail).toBe('said 400');
		const ollama = APIError.generate(
			404,
			{ error: 'model "x" not found' },
			undefined,
			new Headers()
		);
		expect(classifyError(ollama).detail).toBe('model "x" not found');
	});

	it('carries the Retry-After of a 429 or 503', () => {
		expect(classifyError(statusError(429, { 'retry-after': '3' })).retryAfterMs).toBe(3000);
		expect(classifyError(statusError(503, { 'retry-after': '4' })).retryAfterMs).toBe(4000);
	});
});

describe('withRetries', () => {
	it('stops waiting, and trying, when its signal aborts', async () => {
		const ctl = new AbortController();
		let calls = 0;
		const failing = async () => {
			calls++;
			throw statusError(503);
		};
		const out = withRetries(failing, ctl.signal, { retries: 5, backoffBaseMs: 60_000 });
		setTimeout(() => ctl.abort(new Error('stopped')), 10);
		await expect(out).rejects.toThrow('stopped');
		expect(calls).toBe(1);
	});
});

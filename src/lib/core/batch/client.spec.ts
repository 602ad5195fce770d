import { afterEach, describe, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI } from '../../../../tests/fake-openai/server';
import { ModelCallError } from '../errors';
import { createOpenAIClient } from '../model/openai-client';
import type { ChatRequest, RoleEndpoint } from '../model/types';
import type { Role } from '../records';
import { BatchPending, createBatchClient } from './client';
import { customId } from './custom-id';
import type { BatchAnswer } from './output';

const KEY = 'sk-test-secret-0123456789';
const run = { runId: 'run1', modelDir: 'm-1a2b3c4d' };
const request: ChatRequest = {
	role: 'judge',
	task: 'judge_lca',
	prompt: 'judge this',
	temperature: 0,
	maxTokens: 64,
	caseNumber: 'c1',
	stage: 'lca'
};
const servers: FakeOpenAI[] = [];
afterEach(async () => {
	await Promise.all(servers.splice(0).map((s) => s.close()));
});

const endpoints = (baseURL: string): Record<Role, RoleEndpoint> => {
	const ep = { baseURL, apiKey: KEY, model: 'judge-model' };
	return { evaluated: ep, user: ep, judge: ep };
};
const idOf = (attempt: number, occurrence = 0) =>
	customId({
		run,
		stage: 'lca',
		caseNumber: 'c1',
		task: 'judge_lca',
		prompt: 'judge this',
		occurrence,
		attempt
	});
const completion = (content: string | null, finish_reason = 'stop') => ({
	id: 'chatcmpl-1',
	object: 'chat.completion',
	created: 0,
	model: 'judge-model',
	choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason }],
	usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 }
});

/** The batch client's answer to `request` given the answers of attempts 1, 2, …. */
async function batchCall(answers: { status: number; body: unknown }[], retries = 1) {
	const known = new Map<string, BatchAnswer>();
	for (const [i, a] of answers.entries()) {
		const id = await idOf(i + 1);
		known.set(id, { customId: id, ...a });
	}
	const client = createBatchClient(endpoints('http://127.0.0.1:9/v1'), {
		run,
		answers: known,
		retries
	});
	return { client, outcome: await client.complete(request).catch((e: unknown) => e) };
}

/** The interactive client's answer when the server answers every attempt with `reply`. */
async function interactiveCall(status: number, body: unknown, retries = 1) {
	const server = await startFakeOpenAI({
		handler: () => (status === 200 ? { status, body } : { status, body })
	});
	servers.push(server);
	const client = createOpenAIClient(endpoints(server.baseURL), {
		retries,
		sleep: async () => {},
		random: () => 0.5
	});
	return { server, outcome: await client.complete(request).catch((e: unknown) => e) };
}

/** What a failed call shows: everything but timing, and the base URL each client was given. */
function shown(e: unknown, baseURL: string) {
	expect(e).toBeInstanceOf(ModelCallError);
	const err = e as ModelCallError;
	const strip = (t: string) => t.replaceAll(baseURL, '<url>');
	return {
		message: strip(err.message),
		kind: err.details.kind,
		status: err.details.status,
		rawOutput: err.details.rawOutput,
		said: JSON.parse(strip(JSON.stringify(err.details.said ?? null))),
		attempts: err.details.attempts?.map((a) => ({ ...a, latencyMs: 0, delayMs: undefined }))
	};
}

describe('BatchClient: known answers are checked as the interactive client checks them', () => {
	const cases: [string, number, unknown][] = [
		['an empty answer', 200, completion('')],
		['an answer cut at max_tokens', 200, completion('half', 'length')],
		['a body that is not a completion', 200, { hello: 'world' }],
		['a 429', 429, { error: { message: 'slow down', type: 'rate_limit' } }],
		['a 500', 500, { error: { message: 'boom' } }],
		['a 400', 400, { error: { message: 'bad temperature' } }],
		['a 401', 401, { error: { message: `bad key ${KEY}` } }]
	];
	it.each(cases)(
		'%s fails with the same error, after the same attempts',
		async (_, status, body) => {
			const live = await interactiveCall(status, body);
			const batch = await batchCall([
				{ status, body },
				{ status, body }
			]);
			expect(shown(batch.outcome, 'http://127.0.0.1:9/v1')).toEqual(
				shown(live.outcome, live.server.baseURL)
			);
			expect(JSON.stringify(batch.outcome)).not.toContain(KEY);
			expect((batch.outcome as ModelCallError).message).not.toContain(KEY);
		}
	);

	it('a good answer gives the same result', async () => {
		const body = completion('<think>hmm</think>fine');
		const live = await interactiveCall(200, body);
		const batch = await batchCall([{ status: 200, body }]);
		const { attempts: a, ...liveResult } = live.outcome as { attempts: unknown };
		const { attempts: b, ...batchResult } = batch.outcome as { attempts: unknown };
		expect(batchResult).toEqual(liveResult);
		expect(a).toHaveLength(1);
		expect(b).toEqual([{ attempt: 1, outcome: 'ok', latencyMs: 0 }]);
	});
});

describe('BatchClient: retries across rounds', () => {
	it('an unknown answer is a pending request with the interactive body', async () => {
		const { client, outcome } = await batchCall([]);
		expect(outcome).toBeInstanceOf(BatchPending);
		expect(client.pending).toEqual([
			{
				customId: await idOf(1),
				role: 'judge',
				baseURL: 'http://127.0.0.1:9/v1',
				body: {
					model: 'judge-model',
					messages: [{ role: 'user', content: 'judge this' }],
					n: 1,
					temperature: 0,
					max_tokens: 64
				}
			}
		]);
		expect(client.inFlight).toBe(0);
	});

	it('lists its pending requests in one order whatever order they were asked in', async () => {
		const asks = ['c1', 'c2', 'c3', 'c4'].map((caseNumber, i) => ({
			...request,
			caseNumber,
			priority: i === 2 ? -3 * 2 ** 32 : undefined
		}));
		const pendingOf = async (order: ChatRequest[]) => {
			const client = createBatchClient(endpoints('http://127.0.0.1:9/v1'), {
				run,
				answers: new Map()
			});
			await Promise.allSettled(order.map((r) => client.complete(r)));
			return client.pending;
		};
		const forward = await pendingOf(asks);
		const backward = await pendingOf([...asks].reverse());
		expect(forward.map((p) => p.customId)).toEqual(backward.map((p) => p.customId));
		expect(forward).toEqual(backward);
		// The longest chain first, then by custom_id.
		expect(forward[0].chain).toBeGreaterThan(0);
		const rest = forward.slice(1).map((p) => p.customId);
		expect(rest).toEqual([...rest].sort());
	});

	it.each([429, 500])(
		'HTTP %i asks attempt 2 in the next round, within --retries',
		async (status) => {
			const failed = { status, body: { error: { message: 'later' } } };
			const one = await batchCall([failed], 2);
			expect(one.outcome).toBeInstanceOf(BatchPending);
			expect(one.client.pending.map((p) => p.customId)).toEqual([await idOf(2)]);
			const two = await batchCall([failed, { status: 200, body: completion('ok') }], 2);
			expect(two.outcome).toMatchObject({
				response: 'ok',
				attempts: [{ outcome: status === 429 ? 'rate_limit' : 'server', status }, { outcome: 'ok' }]
			});
		}
	);

	it('a batch error line is a retryable server failure', async () => {
		const id = await idOf(1);
		const known = new Map<string, BatchAnswer>([
			[id, { customId: id, error: { code: 'batch_expired', message: 'expired' } }]
		]);
		const client = createBatchClient(endpoints('http://x/v1'), { run, answers: known, retries: 1 });
		await expect(client.complete(request)).rejects.toBeInstanceOf(BatchPending);
		expect(client.pending.map((p) => p.customId)).toEqual([await idOf(2)]);
	});

	it.each([400, 401])('HTTP %i is final: no further attempt is asked', async (status) => {
		const { client, outcome } = await batchCall(
			[{ status, body: { error: { message: 'no' } } }],
			3
		);
		expect(outcome).toBeInstanceOf(ModelCallError);
		expect(client.pending).toEqual([]);
	});

	it('a judge asked again with the same prompt is its next occurrence', async () => {
		const first = await idOf(1, 0);
		const known = new Map<string, BatchAnswer>([
			[first, { customId: first, status: 200, body: completion('not json') }]
		]);
		const client = createBatchClient(endpoints('http://x/v1'), { run, answers: known });
		await expect(client.complete(request)).resolves.toMatchObject({ response: 'not json' });
		await expect(client.complete(request)).rejects.toBeInstanceOf(BatchPending);
		expect(client.pending.map((p) => p.customId)).toEqual([await idOf(1, 1)]);
		// Another case's identical prompt is counted apart.
		await expect(client.complete({ ...request, caseNumber: 'c2' })).rejects.toBeInstanceOf(
			BatchPending
		);
		const other = client.pending.filter((p) => p.customId !== first.replace(/\.0\.1$/, '.1.1'));
		expect(other.map((p) => p.customId.split('.')[6])).toEqual(['0']);
	});
});

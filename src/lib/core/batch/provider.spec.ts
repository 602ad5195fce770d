import { describe, expect, it } from 'vitest';
import { createOpenAIClient } from '../model/openai-client';
import type { BatchRound } from './store';
import { providerSender } from './provider';

const BASE = 'http://provider.test/v1';
const endpoint = { baseURL: BASE, apiKey: 'sk-test', model: 'm' };
const endpoints = { evaluated: endpoint, user: endpoint, judge: endpoint };

type Answer = { status: number; headers?: Record<string, string> };

/** A fetch answering `answers` in turn (the last one repeats), counting what it was asked. */
function provider(answers: Answer[]) {
	let calls = 0;
	const fetch: typeof globalThis.fetch = async (input) => {
		const { status, headers = {} } = answers[Math.min(calls++, answers.length - 1)];
		const chat = String(input).includes('/chat/completions');
		const body =
			status !== 200
				? { error: { message: `said ${status}` } }
				: chat
					? {
							id: 'c',
							object: 'chat.completion',
							created: 0,
							model: 'm',
							choices: [
								{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }
							]
						}
					: { id: 'b1', object: 'batch', status: 'cancelling' };
		return new Response(JSON.stringify(body), {
			status,
			headers: { 'content-type': 'application/json', ...headers }
		});
	};
	return { fetch, calls: () => calls };
}

const policy = (sleeps: number[]) => ({
	retries: 3,
	random: () => 0.5,
	sleep: async (ms: number) => void sleeps.push(ms)
});

/** The requests one interactive call makes, and the waits between them. */
async function throughClient(answers: Answer[]) {
	const p = provider(answers);
	const sleeps: number[] = [];
	const client = createOpenAIClient(endpoints, { ...policy(sleeps), fetch: p.fetch });
	await client
		.complete({
			role: 'evaluated',
			task: 'judge_lca',
			prompt: 'hi',
			temperature: 0,
			maxTokens: 16,
			caseNumber: '1'
		})
		.catch(() => null);
	return { requests: p.calls(), sleeps };
}

/** The requests one call of the batch provider makes (cancelling a batch), and the waits. */
async function throughBatch(answers: Answer[]) {
	const p = provider(answers);
	const sleeps: number[] = [];
	const sender = providerSender({
		run: { runId: 'r', modelDir: 'm-1' },
		endpoints,
		fetch: p.fetch,
		retry: policy(sleeps)
	});
	const round: BatchRound = {
		round: 1,
		mode: 'provider',
		status: 'submitted',
		sent_at: '2025-01-01T00:00:00Z',
		requests: 1,
		files: [{ name: 'f', endpoint: BASE, model: 'm', lines: 1, bytes: 1, batch_id: 'b1' }]
	};
	await sender.cancel!(round);
	return { requests: p.calls(), sleeps };
}

describe('the batch provider retries as the model client does (one policy, no SDK retries)', () => {
	it.each<[string, Answer[]]>([
		['answered at once', [{ status: 200 }]],
		['two server errors, then an answer', [{ status: 503 }, { status: 500 }, { status: 200 }]],
		[
			'a rate limit with Retry-After',
			[{ status: 429, headers: { 'retry-after-ms': '1500' } }, { status: 200 }]
		],
		['a bad request: never again', [{ status: 400 }]],
		['a refused key: never again', [{ status: 401 }]],
		['a server that keeps failing', [{ status: 502 }]]
	])('%s', async (_, answers) => {
		const client = await throughClient(answers);
		expect(await throughBatch(answers)).toEqual(client);
	});

	it('stops after the retries the policy allows, with its backoff', async () => {
		expect(await throughBatch([{ status: 502 }])).toEqual({
			requests: 4,
			sleeps: [750, 1500, 3000]
		});
	});
});

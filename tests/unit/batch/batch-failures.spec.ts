/**
 * Failed requests in batch mode (issue 32, "Batch mode"): a run stopped on a request failed for
 * good is resumed by the same command, which asks that request again as an interactive rerun
 * does; an answer whose text is not text is a failed attempt, never saved nor replayed.
 */
import { describe, expect, it } from 'vitest';
import { providerSender } from '../../../src/lib/core/batch/provider';
import { runBatch } from '../../../src/lib/core/batch/rounds';
import { parseBatchAnswers } from '../../../src/lib/core/batch/store';
import { modelDirName } from '../../../src/lib/core/layout';
import { runAll } from '../../../src/lib/core/engine/run-all';
import { ModelCallError } from '../../../src/lib/core/errors';
import { createOpenAIClient } from '../../../src/lib/core/model/openai-client';
import { DEFAULT_SETTINGS } from '../../../src/lib/core/run-defaults';
import { MemoryStore } from '../../../src/lib/core/store/memory-store';
import { simulatedScript } from '../../engine/simulated-script';
import { byTask } from '../../fake-openai/by-task';
import type { FakeOpenAI, Handler } from '../../fake-openai/server';
import { makeDataset } from '../../fixtures/engine/cases';
import { MODELS } from '../engine/harness';
import { comparableRecords, serveBatch as serve } from './batch-compare';

const dataset = makeDataset(3);
const settings = { ...DEFAULT_SETTINGS, retries: 1 };
const common = { dataset, runId: 'r1', models: MODELS, settings };
const NODE = 'http://gpu-node:8000/v1';
const endpoints = { evaluated: NODE, user: NODE, judge: NODE };
const roles = (baseURL: string) =>
	Object.fromEntries(
		Object.entries(MODELS).map(([role, model]) => [role, { baseURL, apiKey: '', model }])
	) as never;

const run = async () => ({ runId: 'r1', modelDir: await modelDirName(MODELS.evaluated) });
const sender = async (server: FakeOpenAI) =>
	providerSender({ run: await run(), endpoints: roles(server.baseURL), pollMs: 5 });

async function interactive(): Promise<MemoryStore> {
	const live = await serve(byTask(simulatedScript));
	const store = new MemoryStore();
	await runAll({ ...common, client: createOpenAIClient(roles(live.baseURL)), store, endpoints });
	return store;
}

/** Answers as the simulated models, except `bad(prompt, first)` replies, for each prompt. */
function answering(bad: (prompt: string, first: boolean) => ReturnType<Handler> | null): Handler {
	const clean = byTask(simulatedScript);
	const seen = new Set<string>();
	return (request) => {
		const first = !seen.has(request.prompt);
		seen.add(request.prompt);
		return bad(request.prompt, first) ?? clean(request);
	};
}

describe('a failure is always resumable', { timeout: 60_000 }, () => {
	it.each([
		['500 twice', { status: 500, body: { error: { message: 'boom' } } }],
		[
			'a 400',
			{ status: 400, body: { error: { message: 'bad request', type: 'invalid_request_error' } } }
		]
	] as const)(
		'a request that failed for good (%s) is asked again by the same command',
		async (_name, reply) => {
			const expected = await interactive();
			let target: string | undefined;
			const broken = await serve(
				answering((prompt) => ((target ??= prompt) === prompt ? reply : null))
			);
			const store = new MemoryStore();
			const options = { ...common, store, endpoints };
			await expect(runBatch(options, await sender(broken))).rejects.toBeInstanceOf(ModelCallError);
			const healthy = await serve(byTask(simulatedScript));
			const out = await runBatch(options, await sender(healthy));
			expect(out.done).toBe(true);
			expect(healthy.batches.lines.map((l) => l.body)).toContainEqual(
				expect.objectContaining({ messages: [{ role: 'user', content: target }] })
			);
			expect(comparableRecords(store)).toEqual(comparableRecords(expected));
			// A third start replays every saved answer: nothing asked, the same records.
			const again = await serve(byTask(simulatedScript));
			expect((await runBatch(options, await sender(again))).done).toBe(true);
			expect(again.batches.lines).toHaveLength(0);
			expect(comparableRecords(store)).toEqual(comparableRecords(expected));
		}
	);
});

describe('an answer is text or a failed attempt', { timeout: 60_000 }, () => {
	it.each([
		['content', { content: 42 }],
		['reasoning_content', { content: 'x', reasoning_content: 5 }]
	] as const)('a non-text %s is asked again, never saved', async (field, reply) => {
		const expected = await interactive();
		let target: string | undefined;
		const provider = await serve(
			answering((prompt, first) =>
				first && (target ??= prompt) === prompt ? (reply as never) : null
			)
		);
		const store = new MemoryStore();
		const out = await runBatch({ ...common, store, endpoints }, await sender(provider));
		expect(out.done).toBe(true);
		expect(comparableRecords(store)).toEqual(comparableRecords(expected));
		const answers = await store.readBatchAnswers(await run());
		const failed = answers.filter((a) => 'error' in a && a.error.code === 'not_text');
		expect(failed).toHaveLength(1);
		expect('error' in failed[0] && failed[0].error.message).toContain(
			`message.${field} is a number`
		);
		const saved = [...store.toFiles()].find(([p]) => p.endsWith('answers.jsonl'))![1];
		expect(saved).not.toMatch(/"(content|reasoning_content)":\s*(42|5)\b/);
	});

	it('a saved answer with non-text content (an older version) is read as a failed attempt', async () => {
		const line = (content: unknown) =>
			JSON.stringify({
				custom_id: 'lp1.0123abcd.ge.0123456789.la.0123456789abcdef.0.1',
				round: 2,
				response: { status_code: 200, body: { choices: [{ message: { content } }] } }
			}) + '\n';
		const [bad, good] = await parseBatchAnswers(line(42) + line('ok'), 'answers.jsonl');
		expect(bad).toEqual({
			customId: 'lp1.0123abcd.ge.0123456789.la.0123456789abcdef.0.1',
			round: 2,
			error: { code: 'not_text', message: 'choices[0].message.content is a number, not text' }
		});
		expect(good).toMatchObject({ status: 200 });
	});
});

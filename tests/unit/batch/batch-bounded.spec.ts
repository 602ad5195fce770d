/**
 * Bounded memory, streamed reads (issue 32 item 5): an answer past the answer bound of its
 * request's max_tokens (PROTOCOL.md §3) is a failed attempt in batch mode as in an interactive
 * run: asked again in a later round, never saved. A line past the line bound is counted as it is
 * read, never held; so is a line of `batch/answers.jsonl` an older version saved past it.
 */
import { describe, expect, it } from 'vitest';
import { filesSender } from '../../../src/lib/core/batch/files-sender';
import { importBatchOutputs, outputText } from '../../../src/lib/core/batch/import';
import { maxOutputLineBytes } from '../../../src/lib/core/batch/output';
import { providerSender } from '../../../src/lib/core/batch/provider';
import { runBatch } from '../../../src/lib/core/batch/rounds';
import { batchAnswerLine, parseBatchAnswers } from '../../../src/lib/core/batch/store';
import { runAll } from '../../../src/lib/core/engine/run-all';
import { modelDirName } from '../../../src/lib/core/layout';
import { maxAnswerBytes } from '../../../src/lib/core/model/bounded-fetch';
import { createOpenAIClient } from '../../../src/lib/core/model/openai-client';
import { DEFAULT_SETTINGS } from '../../../src/lib/core/run-defaults';
import { MemoryStore } from '../../../src/lib/core/store/memory-store';
import { simulatedScript } from '../../engine/simulated-script';
import { byTask } from '../../fake-openai/by-task';
import type { Handler } from '../../fake-openai/server';
import { makeDataset } from '../../fixtures/engine/cases';
import { MODELS } from '../engine/harness';
import { comparableRecords, serveBatch as serve } from './batch-compare';
import { answerRound, memoryFiles } from './round-files';

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

async function interactive(): Promise<MemoryStore> {
	const live = await serve(byTask(simulatedScript));
	const store = new MemoryStore();
	await runAll({ ...common, client: createOpenAIClient(roles(live.baseURL)), store, endpoints });
	return store;
}

/** An answer of `bytes` bytes: past the answer bound of max_tokens 8192 (320 KiB). */
const huge = (bytes: number) => ({ content: 'x'.repeat(bytes) });

/** The simulated models, except that the first time the first prompt asked is answered `reply`. */
function onceTooLarge(reply: ReturnType<Handler>): { handler: Handler; target: () => string } {
	const clean = byTask(simulatedScript);
	let target: string | undefined;
	let answered = false;
	const handler: Handler = (request) => {
		if (!answered && (target ??= request.prompt) === request.prompt) {
			answered = true;
			return reply;
		}
		return clean(request);
	};
	return { handler, target: () => target! };
}

const savedText = (store: MemoryStore) =>
	[...store.toFiles()].find(([p]) => p.endsWith('answers.jsonl'))![1];

describe('an answer past its bound is a failed attempt, never saved', { timeout: 60_000 }, () => {
	it('provider mode: asked again in a later round; the records are the interactive run’s', async () => {
		const expected = await interactive();
		const over = maxAnswerBytes(settings.max_tokens) + 1000;
		const { handler } = onceTooLarge(huge(over) as never);
		const provider = await serve(handler);
		const store = new MemoryStore();
		const sender = providerSender({
			run: await run(),
			endpoints: roles(provider.baseURL),
			pollMs: 5
		});
		const out = await runBatch({ ...common, store, endpoints }, sender);
		expect(out.done).toBe(true);
		expect(comparableRecords(store)).toEqual(comparableRecords(expected));
		const answers = await store.readBatchAnswers(await run());
		const failed = answers.filter((a) => 'error' in a && a.error.code === 'answer_too_large');
		expect(failed).toHaveLength(1);
		expect('error' in failed[0] && failed[0].error.message).toMatch(
			new RegExp(`^the answer is .* \\(${over} bytes\\), .*the provider ignored max_tokens$`)
		);
		expect(savedText(store)).not.toContain('x'.repeat(1000));
	});

	it('files mode: a line past the line bound is a failed attempt, asked again; not saved', async () => {
		const expected = await interactive();
		const cluster = await serve(byTask(simulatedScript));
		const store = new MemoryStore();
		const options = { ...common, store, endpoints };
		const limit = maxOutputLineBytes(settings.max_tokens);
		let first: string | null = null;
		for (let round = 1; ; round++) {
			const { files, open } = memoryFiles();
			const out = await runBatch(options, filesSender(open));
			if (out.done) break;
			const lines = (await answerRound(cluster, [...files.values()].flat())).split('\n');
			if (round === 1) {
				// The first answer made a line of twice the bound: its custom_id first, as providers write.
				const row = JSON.parse(lines[0]);
				first = row.custom_id as string;
				row.response.body.choices[0].message.content = 'y'.repeat(2 * limit);
				lines[0] = JSON.stringify(row);
			}
			const got = await importBatchOutputs(options, [outputText('out.jsonl', lines.join('\n'))]);
			if (round === 1) {
				expect(got.failed).toEqual([
					expect.objectContaining({ what: 'answer_too_large', count: 1 })
				]);
				expect(got.failed[0].first).toContain('was not read further');
			}
		}
		expect(first).not.toBeNull();
		expect(comparableRecords(store)).toEqual(comparableRecords(expected));
		expect(savedText(store)).not.toContain('y'.repeat(1000));
		const answers = await store.readBatchAnswers(await run());
		expect(answers.find((a) => a.customId === first)).toMatchObject({
			round: 1,
			error: { code: 'answer_too_large' }
		});
	});
});

describe('batch/answers.jsonl is read a line at a time', () => {
	it('a saved line past the bound (an older version saved it) is a failed attempt of its round', async () => {
		const ok = { customId: 'lp1.a', round: 1, status: 200, body: { choices: [] } };
		const big = { customId: 'lp1.b', round: 2, status: 200, body: { choices: ['z'.repeat(5000)] } };
		const text = [ok, big, { ...ok, customId: 'lp1.c' }].map(batchAnswerLine).join('');
		const answers = await parseBatchAnswers(text, 'answers.jsonl', 1000);
		expect(answers.map((a) => a.customId)).toEqual(['lp1.a', 'lp1.b', 'lp1.c']);
		expect(answers[1]).toMatchObject({ round: 2, error: { code: 'answer_too_large' } });
		// A line past the bound that names no custom_id at its start is damage, said with its line.
		await expect(
			parseBatchAnswers(
				`${batchAnswerLine(ok)}{"x":"${'z'.repeat(5000)}"}\n`,
				'answers.jsonl',
				1000
			)
		).rejects.toThrow(/answers\.jsonl, line 2: .*saved batch answer/);
	});
});

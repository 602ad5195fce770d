/**
 * Batch mode says why (issue 32, "Batch mode" 3): a round's failed requests are summarised by kind
 * (HTTP status, batch error code, a body that is not a chat completion) with the first message of
 * each, escaped and bounded; `batch import` counts answers, not error lines; a 400 that names a
 * parameter stops the run at the first round with that parameter named.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { filesSender } from '../../../src/lib/core/batch/files-sender';
import { importBatchOutputs, outputText } from '../../../src/lib/core/batch/import';
import { roundOutcome } from '../../../src/lib/core/batch/outcome';
import { runBatch } from '../../../src/lib/core/batch/rounds';
import { ModelCallError } from '../../../src/lib/core/errors';
import { modelDirName } from '../../../src/lib/core/layout';
import { MemoryStore } from '../../../src/lib/core/store/memory-store';
import { failedText } from '../../../src/cli/batch/run-batch';
import { simulatedScript } from '../../engine/simulated-script';
import { byTask } from '../../fake-openai/by-task';
import { startFakeOpenAI, type FakeOpenAI, type Handler } from '../../fake-openai/server';
import { runCliInProcess } from '../../cli/run-cli';
import { makeDataset } from '../../fixtures/engine/cases';
import { MODELS } from '../engine/harness';
import { memoryFiles } from './round-files';

const NODE = 'http://gpu-node:8000/v1';
const common = {
	dataset: makeDataset(2),
	runId: 'r1',
	models: MODELS,
	endpoints: { evaluated: NODE, user: NODE, judge: NODE }
};

let tmp: string;
const servers: FakeOpenAI[] = [];
beforeAll(async () => {
	tmp = await mkdtemp(join(tmpdir(), 'lexpilot-batch-why-'));
});
afterEach(async () => {
	await Promise.all(servers.splice(0).map((s) => s.close()));
});
afterAll(async () => {
	await rm(tmp, { recursive: true, force: true });
});

const ok = (id: string) => ({
	custom_id: id,
	response: {
		status_code: 200,
		body: { choices: [{ message: { role: 'assistant', content: 'fine' }, finish_reason: 'stop' }] }
	},
	error: null
});
const status = (id: string, code: number, message: string) => ({
	custom_id: id,
	response: { status_code: code, body: { error: { message, type: 'x', param: null, code: null } } },
	error: null
});
const jsonl = (rows: unknown[]) => rows.map((r) => `${JSON.stringify(r)}\n`).join('');

/** Round 1 of a files-mode run, written, with its request ids. */
async function roundOne() {
	const store = new MemoryStore();
	const options = { ...common, store };
	const { files, open } = memoryFiles();
	const out = await runBatch(options, filesSender(open));
	expect(out.done).toBe(false);
	const ids = [...files.values()].flat().map((l) => JSON.parse(l).custom_id as string);
	return { store, options, ids };
}

/** `run --batch provider` of the three-case fixture against `server`, in process. */
const runProvider = (root: string, server: FakeOpenAI) =>
	runCliInProcess(
		[
			'run',
			'--dataset',
			resolve('tests/fixtures/engine/three-cases.json'),
			'--output-root',
			root,
			'--run-id',
			'r1',
			'--model',
			'eval-model',
			'--batch',
			'provider'
		],
		{
			env: {
				OPENAI_BASE_URL: server.baseURL,
				OPENAI_API_KEY: 'sk-batch-why-0123456789',
				LEXPILOT_BATCH_POLL_MS: '10'
			}
		}
	);

describe('a round says why its requests failed', () => {
	it('summarises failed requests by kind, with the first message of each, bounded', () => {
		const outcome = roundOutcome([
			{ customId: 'a', status: 200, body: ok('a').response.body },
			{ customId: 'b', status: 500, body: { error: { message: 'boom\u001b[2J\nerror: forged' } } },
			{ customId: 'c', status: 500, body: { error: { message: 'second' } } },
			{ customId: 'd', status: 429, body: { error: { message: 'x'.repeat(5000) } } },
			{ customId: 'e', error: { code: 'batch_expired', message: 'expired' } },
			{ customId: 'f', status: 200, body: { hello: 'world' } }
		]);
		expect(outcome.answers).toBe(1);
		expect(outcome.failed.map((f) => [f.what, f.count])).toEqual([
			['HTTP 500', 2],
			['HTTP 429', 1],
			['batch_expired', 1],
			['not a chat completion', 1]
		]);
		expect(outcome.failed[1].first.length).toBeLessThan(400);
		const text = failedText(outcome.failed, 'batch: round 1: ');
		expect(text.split('\n')[0]).toBe('batch: round 1: 5 requests failed:');
		expect(text).toContain('  2 × HTTP 500, first: "boom\\u001b[2J\\nerror: forged"\n');
		expect(text).toContain('  1 × not a chat completion, first: "{\\"hello\\":\\"world\\"}"\n');
		expect(text).not.toContain(String.fromCharCode(27));
		expect(text).not.toContain('\nerror:');
	});

	it('batch import counts answers, not error lines, and lists the failed ones', async () => {
		const { options, ids } = await roundOne();
		const rows = ids.map((id, i) =>
			i === 0 ? status(id, 500, 'boom') : i === 1 ? status(id, 429, 'slow down') : ok(id)
		);
		const got = await importBatchOutputs(options, [outputText('out.jsonl', jsonl(rows))]);
		expect(got.answers).toBe(ids.length - 2);
		expect(got.failed).toEqual([
			{ what: 'HTTP 500', count: 1, first: 'boom' },
			{ what: 'HTTP 429', count: 1, first: 'slow down' }
		]);
	});

	it.each([
		[
			"OpenAI's error file (a 400 response)",
			(id: string) => ({
				custom_id: id,
				response: {
					status_code: 400,
					body: {
						error: {
							message:
								"Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
							type: 'invalid_request_error',
							param: 'max_tokens',
							code: 'unsupported_parameter'
						}
					}
				},
				error: null
			})
		],
		[
			'an error line naming the parameter (no response)',
			(id: string) => ({
				custom_id: id,
				response: null,
				error: {
					code: 'unsupported_value',
					message: 'Only the default (1) value is supported.',
					param: 'temperature'
				}
			})
		],
		[
			"vLLM's ErrorResponse",
			(id: string) => ({
				custom_id: id,
				response: { status_code: 400, request_id: 'v', body: null },
				error: {
					object: 'error',
					message: 'max_tokens must be at least 1',
					type: 'BadRequestError',
					param: 'max_tokens',
					code: 400
				}
			})
		]
	])('a 400 naming a parameter (%s) stops the run at round 1, naming it', async (_n, line) => {
		const { store, options, ids } = await roundOne();
		const param = JSON.stringify(line('x')).includes('temperature') ? 'temperature' : 'max_tokens';
		await importBatchOutputs(options, [
			outputText('out.jsonl', jsonl(ids.map((id) => line(id) as unknown)))
		]);
		const stopped = await runBatch(options, filesSender(memoryFiles().open)).then(
			() => null,
			(e: unknown) => e
		);
		expect(stopped).toBeInstanceOf(ModelCallError);
		expect((stopped as Error).message).toContain(param);
		const run = { runId: 'r1', modelDir: await modelDirName(MODELS.evaluated) };
		expect((await store.readBatchState(run))?.rounds).toHaveLength(1);
	});
});

describe('run --batch provider says why (CLI)', { timeout: 60_000 }, () => {
	it("prints each answered round's failed requests by kind with the first message", async () => {
		const clean = byTask(simulatedScript);
		const seen = new Set<string>();
		const flaky: Handler = (request) => {
			const first = !seen.has(request.prompt);
			seen.add(request.prompt);
			return first && seen.size % 3 === 1
				? { status: 500, body: { error: { message: 'boom\nerror: forged' } } }
				: clean(request);
		};
		const server = await startFakeOpenAI({ handler: flaky, batch: { delayMs: 5 } });
		servers.push(server);
		const root = join(tmp, 'provider');
		const r = await runProvider(root, server);
		expect(r.code, r.stderr).toBe(0);
		expect(r.stderr).toMatch(/^batch: round 1: \d+ requests? failed:$/m);
		expect(r.stderr).toMatch(/^ {2}\d+ × HTTP 500, first: "boom\\nerror: forged"$/m);
		expect(r.stderr).not.toMatch(/^error: forged/m);
	});

	it("prints a failed batch's provider reasons (errors.data) as it comes back, and its requests carry them", async () => {
		const server = await startFakeOpenAI({
			handler: byTask(simulatedScript),
			batch: {
				delayMs: 5,
				// The first batch is refused at validation; the later rounds go through.
				failWith: (i) =>
					i === 0
						? [
								{
									code: 'token_limit_exceeded',
									message: 'Enqueued token limit reached for eval-model\nerror: forged',
									line: null
								},
								{ code: 'invalid_request', message: 'second reason', line: 3 }
							]
						: undefined
			}
		});
		servers.push(server);
		const root = join(tmp, 'failed-batch');
		const r = await runProvider(root, server);
		expect(r.code, r.stderr).toBe(0);
		const batchLine = /^batch: round 1: batch (\S+): provider error 1 of 2: /m;
		expect(r.stderr).toMatch(batchLine);
		const id = batchLine.exec(r.stderr)![1];
		expect(r.stderr).toContain(
			`batch: round 1: batch ${id}: provider error 1 of 2: token_limit_exceeded: Enqueued token limit reached for eval-model\\u000aerror: forged\n`
		);
		expect(r.stderr).toContain(
			`batch: round 1: batch ${id}: provider error 2 of 2: invalid_request: second reason (input line 3)\n`
		);
		// Said once, not on every later change of the round.
		expect(r.stderr.split('provider error 1 of 2').length).toBe(2);
		// The round's failed requests say why, not "the round returned no answer".
		expect(r.stderr).toMatch(
			/^ {2}\d+ × batch_failed, first: "batch \S+ failed: token_limit_exceeded: Enqueued token limit reached for eval-model\\nerror: forged and 1 more"$/m
		);
		expect(r.stderr).not.toContain('no_answer');
		expect(r.stderr).not.toMatch(/^error: forged/m);
	});
});

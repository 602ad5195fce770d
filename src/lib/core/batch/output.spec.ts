import { beforeAll, describe, expect, it } from 'vitest';
import { CheckpointError, UsageError } from '../errors';
import { customId, runHash, type CallIdentity } from './custom-id';
import { statusFailure } from '../model/completion';
import { BatchOutputReader } from './output';

const run = { runId: 'run1', modelDir: 'm-1a2b3c4d' };
const call = (n: number): CallIdentity => ({
	run,
	stage: 'gen',
	caseNumber: String(n),
	task: 'lexawn',
	prompt: `prompt ${n}`,
	occurrence: 0,
	attempt: 1
});

let ids: string[];
let hash: string;
let foreign: string;
beforeAll(async () => {
	ids = await Promise.all([1, 2, 3].map((n) => customId(call(n))));
	hash = await runHash(run);
	foreign = await customId({ ...call(1), run: { runId: 'run2', modelDir: 'm-1a2b3c4d' } });
});

const ok = (id: string, content = 'answer') =>
	JSON.stringify({
		id: `batch_req_${id.slice(-4)}`,
		custom_id: id,
		response: {
			status_code: 200,
			request_id: 'req',
			body: {
				choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }]
			}
		},
		error: null
	}) + '\n';

/** The round's requests, each asking `max_tokens` 16 (a 64.5 KiB answer bound). */
const asked = () => new Map(ids.map((id) => [id, 16]));

async function refusal(fn: () => Promise<unknown>): Promise<string> {
	try {
		await fn();
	} catch (e) {
		// A malformed line is the JSONL reader's CheckpointError; a bad answer a UsageError: exit 2 both.
		expect(e instanceof UsageError || e instanceof CheckpointError).toBe(true);
		return (e as Error).message;
	}
	throw new Error('expected a refusal');
}

describe('BatchOutputReader', () => {
	it('reads responses and errors, and tells which requests are still unanswered', async () => {
		const reader = new BatchOutputReader(asked(), hash);
		const out = await reader.read(ok(ids[0]) + ok(ids[1], 'second'), 'out.jsonl');
		const errors = await reader.read(
			JSON.stringify({
				custom_id: ids[2],
				response: { status_code: 500, body: { error: { message: 'boom' } } },
				error: null
			}) + '\n',
			'errors.jsonl'
		);
		expect(out.map((a) => a.customId)).toEqual([ids[0], ids[1]]);
		expect(out[1]).toMatchObject({ status: 200 });
		expect(errors[0]).toMatchObject({ customId: ids[2], status: 500 });
		expect(reader.missing()).toEqual([]);
	});

	it('reads an error line without a response (an expired or failed request)', async () => {
		const reader = new BatchOutputReader(asked(), hash);
		const [answer] = await reader.read(
			JSON.stringify({
				custom_id: ids[0],
				response: null,
				error: {
					code: 'batch_expired',
					message: 'This request could not be executed before the completion window expired.'
				}
			}) + '\n',
			'errors.jsonl'
		);
		expect(answer).toEqual({
			customId: ids[0],
			error: { code: 'batch_expired', message: expect.stringContaining('expired') }
		});
		expect(reader.missing()).toEqual([ids[1], ids[2]]);
	});

	// vLLM's run_batch (vllm/entrypoints/openai/run_batch.py): an ErrorResponse beside a response of
	// its status and no body (older versions flat with an integer code, newer ones nested), and a
	// plain string from its exception path (status 400, no body).
	const vllm = (id: string, error: unknown, status: number | null = 400) =>
		JSON.stringify({
			id: 'vllm-1',
			custom_id: id,
			response:
				status === null ? null : { status_code: status, request_id: 'vllm-batch-1', body: null },
			error
		}) + '\n';
	it.each([
		[
			'an older ErrorResponse (integer code)',
			{
				object: 'error',
				message: "'max_tokens' is too large",
				type: 'BadRequestError',
				param: 'max_tokens',
				code: 400
			},
			400,
			{
				message: "'max_tokens' is too large",
				type: 'BadRequestError',
				param: 'max_tokens',
				code: '400'
			}
		],
		[
			'a newer, nested ErrorResponse',
			{
				error: {
					message: 'The model `m` does not exist.',
					type: 'NotFoundError',
					param: null,
					code: 404
				}
			},
			404,
			{ message: 'The model `m` does not exist.', type: 'NotFoundError', param: null, code: '404' }
		],
		[
			'a plain string (the exception path)',
			'Request must not be sent in stream mode',
			400,
			{ message: 'Request must not be sent in stream mode', type: null, param: null, code: null }
		]
	])("reads vLLM's %s as a failed request with its reasons", async (_name, error, status, said) => {
		const reader = new BatchOutputReader(asked(), hash);
		const [answer] = await reader.read(vllm(ids[0], error, status), 'vllm.output.jsonl');
		expect(answer).toEqual({ customId: ids[0], status, body: { error: said } });
		// The failure the batch client takes it for names the reason, as an interactive 4xx does.
		expect(statusFailure(status, (answer as { body: unknown }).body)).toMatchObject({
			retryable: false,
			status,
			detail: said.message
		});
	});

	it("reads vLLM's error with an integer code and no response as a failed request, bounded", async () => {
		const reader = new BatchOutputReader(asked(), hash);
		const [answer] = await reader.read(
			vllm(ids[0], { code: 500, message: 'engine died '.repeat(1000) }, null),
			'vllm.output.jsonl'
		);
		expect(answer).toMatchObject({ customId: ids[0], error: { code: '500' } });
		const { message } = (answer as { error: { message: string } }).error;
		expect(message.length).toBeLessThan(2100);
		expect(message).toMatch(/^engine died .*… \(12000 characters in all\)$/);
	});

	it.each([
		[
			'an id of another run',
			() => ok(foreign),
			/out\.jsonl, line 1: custom_id lp1\.\S+ belongs to another run/
		],
		[
			'an id not asked in this round',
			() => ok(ids[0]).replace(ids[0], ids[0].slice(0, -1) + '9'),
			/line 1: custom_id \S+ was not asked in this round/
		],
		[
			'a malformed id, escaped',
			() => ok(ids[0]).replace(ids[0], 'x\\u001b[2J'),
			/custom_id x\\u001b\[2J was not asked/
		],
		[
			'the same id twice in one file',
			() => ok(ids[0]) + ok(ids[0]),
			/line 2: custom_id \S+ is answered a second time \(first in out\.jsonl, line 1\)/
		],
		[
			'a line with neither response nor error',
			() => JSON.stringify({ custom_id: ids[1] }) + '\n',
			/line 1: custom_id \S+ has neither a response nor an error/
		],
		['a line that is not JSON', () => ok(ids[0]) + '{"custom_id": \n', /out\.jsonl.*line 2/],
		['a torn last line', () => ok(ids[0]) + ok(ids[1]).slice(0, 30), /out\.jsonl.*line 2/]
	])('refuses %s, naming file and line', async (_name, text, message) => {
		const reader = new BatchOutputReader(asked(), hash);
		expect(await refusal(() => reader.read(text(), 'out.jsonl'))).toMatch(message);
	});

	it('refuses an id answered in two files, naming both', async () => {
		const reader = new BatchOutputReader(asked(), hash);
		await reader.read(ok(ids[0]), 'a.jsonl');
		expect(await refusal(() => reader.read(ok(ids[1]) + ok(ids[0]), 'b.jsonl'))).toMatch(
			/b\.jsonl, line 2: .* \(first in a\.jsonl, line 1\)/
		);
	});
});

/**
 * The fake server's Files and Batches APIs through the `openai` SDK, as the workbench's batch
 * mode will call them: upload, create, poll, download output and error files, cancel.
 */
import OpenAI, { toFile } from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI, type FakeOpenAIOptions } from '../../fake-openai/server';

const servers: FakeOpenAI[] = [];
afterEach(async () => {
	await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function client(options: FakeOpenAIOptions = {}) {
	const server = await startFakeOpenAI(options);
	servers.push(server);
	return { server, sdk: new OpenAI({ baseURL: server.baseURL, apiKey: 'k', maxRetries: 0 }) };
}

const request = (id: string, prompt: string) =>
	JSON.stringify({
		custom_id: id,
		method: 'POST',
		url: '/v1/chat/completions',
		body: { model: 'fake-model', messages: [{ role: 'user', content: prompt }], n: 1 }
	});

async function submit(sdk: OpenAI, lines: string[]) {
	const file = await sdk.files.create({
		file: await toFile(Buffer.from(lines.map((l) => `${l}\n`).join('')), 'round-1.jsonl'),
		purpose: 'batch'
	});
	return sdk.batches.create({
		input_file_id: file.id,
		endpoint: '/v1/chat/completions',
		completion_window: '24h'
	});
}

/** Polls until the batch leaves `in_progress` (the fake finishes after its delay). */
async function settled(sdk: OpenAI, id: string) {
	for (;;) {
		const batch = await sdk.batches.retrieve(id);
		if (batch.status !== 'in_progress' && batch.status !== 'validating') return batch;
		await new Promise((r) => setTimeout(r, 5));
	}
}

const linesOf = async (sdk: OpenAI, fileId: string | null | undefined) =>
	fileId
		? (await (await sdk.files.content(fileId)).text())
				.split('\n')
				.filter(Boolean)
				.map((l) => JSON.parse(l))
		: [];

describe('fake Batch API', () => {
	it('answers every line through the chat handler into the output file', async () => {
		const { server, sdk } = await client({
			handler: ({ prompt }) => ({ content: `re: ${prompt}` })
		});
		const created = await submit(sdk, [request('a', 'one'), request('b', 'two')]);
		expect(created.status).toBe('in_progress');
		const batch = await settled(sdk, created.id);
		expect(batch).toMatchObject({
			status: 'completed',
			request_counts: { total: 2, completed: 2, failed: 0 },
			error_file_id: null
		});
		const out = await linesOf(sdk, batch.output_file_id);
		expect(out.map((l) => [l.custom_id, l.response.status_code])).toEqual([
			['a', 200],
			['b', 200]
		]);
		expect(out[1].response.body.choices[0].message.content).toBe('re: two');
		expect(server.batches.lines.map((l) => l.customId)).toEqual(['a', 'b']);
		// A batch line is no chat request of its own.
		expect(server.chatRequests).toHaveLength(0);
	});

	it('puts failed requests in the error file with their status', async () => {
		const { sdk } = await client({
			handler: ({ prompt }) =>
				prompt === 'bad'
					? { status: 500 }
					: prompt === 'gone'
						? { hangup: true }
						: { content: 'ok' }
		});
		const batch = await settled(
			sdk,
			(await submit(sdk, [request('a', 'ok'), request('b', 'bad'), request('c', 'gone')])).id
		);
		expect(batch.request_counts).toEqual({ total: 3, completed: 1, failed: 2 });
		expect((await linesOf(sdk, batch.output_file_id)).map((l) => l.custom_id)).toEqual(['a']);
		const errors = await linesOf(sdk, batch.error_file_id);
		expect(errors.map((l) => [l.custom_id, l.response?.status_code ?? l.error.code])).toEqual([
			['b', 500],
			['c', 'server_error']
		]);
	});

	it('expires a batch with half its lines answered, the rest listed as batch_expired', async () => {
		const { server, sdk } = await client({ batch: { expire: (i) => i === 0 } });
		const lines = ['a', 'b', 'c', 'd'].map((id) => request(id, id));
		const batch = await settled(sdk, (await submit(sdk, lines)).id);
		expect(batch.status).toBe('expired');
		expect((await linesOf(sdk, batch.output_file_id)).map((l) => l.custom_id)).toEqual(['a', 'b']);
		const errors = await linesOf(sdk, batch.error_file_id);
		expect(errors.map((l) => [l.custom_id, l.error.code])).toEqual([
			['c', 'batch_expired'],
			['d', 'batch_expired']
		]);
		expect(server.batches.lines).toHaveLength(2);
		// The next batch runs in full.
		expect((await settled(sdk, (await submit(sdk, lines)).id)).status).toBe('completed');
	});

	it('cancels a batch before it runs: no line is answered', async () => {
		const { server, sdk } = await client({ batch: { delayMs: 60_000 } });
		const created = await submit(sdk, [request('a', 'one')]);
		expect((await sdk.batches.cancel(created.id)).status).toBe('cancelled');
		expect((await sdk.batches.retrieve(created.id)).status).toBe('cancelled');
		expect(server.batches.lines).toHaveLength(0);
	});

	it('fails a batch whose input holds a line that is not a request, naming the line', async () => {
		const { sdk } = await client();
		const batch = await settled(sdk, (await submit(sdk, [request('a', 'x'), '{"nope": 1}'])).id);
		expect(batch.status).toBe('failed');
		expect(batch.errors?.data?.[0]).toMatchObject({ line: 2, code: 'invalid_json_line' });
	});

	it('answers 404 for an unknown file or batch', async () => {
		const { sdk } = await client();
		await expect(sdk.batches.retrieve('batch_404')).rejects.toBeInstanceOf(OpenAI.NotFoundError);
		await expect(sdk.files.content('file-404')).rejects.toBeInstanceOf(OpenAI.NotFoundError);
	});
});

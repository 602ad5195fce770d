/**
 * Plays a GPU cluster for files mode, as `vllm run-batch -i IN -o OUT` does: every line of a
 * batch input file is sent to a chat server (the fake one) and answered in the Batch API's
 * output format, `{id, custom_id, response: {status_code, request_id, body}, error}`.
 *
 *   npx tsx tests/fake-openai/answer-batch.ts --base-url URL -i IN -o OUT [-i IN2 -o OUT2 …]
 */
import { readFile, writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';

/** The output text for one input text. */
export async function answerBatchText(baseURL: string, input: string): Promise<string> {
	const lines = input.split('\n').filter(Boolean);
	const out = await Promise.all(
		lines.map(async (line, i) => {
			const request = JSON.parse(line) as { custom_id: string; body: unknown };
			const res = await fetch(`${baseURL}/chat/completions`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify(request.body)
			});
			const response = { status_code: res.status, request_id: `req-${i}`, body: await res.json() };
			return `${JSON.stringify({ id: `vllm-${i}`, custom_id: request.custom_id, response, error: null })}\n`;
		})
	);
	return out.join('');
}

async function main() {
	const { values } = parseArgs({
		options: {
			'base-url': { type: 'string' },
			i: { type: 'string', multiple: true },
			o: { type: 'string', multiple: true }
		}
	});
	const inputs = values.i ?? [];
	const outputs = values.o ?? [];
	if (!values['base-url'] || inputs.length !== outputs.length) {
		throw new Error('usage: answer-batch.ts --base-url URL -i IN -o OUT [-i IN2 -o OUT2 …]');
	}
	for (const [k, input] of inputs.entries()) {
		await writeFile(
			outputs[k],
			await answerBatchText(values['base-url'], await readFile(input, 'utf8'))
		);
	}
}

if (import.meta.url === `file://${process.argv[1]}`) {
	main().catch((e: unknown) => {
		process.stderr.write(`answer-batch: ${e instanceof Error ? e.message : String(e)}\n`);
		process.exit(2);
	});
}

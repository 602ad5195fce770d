import { describe, expect, it } from 'vitest';
import { UsageError } from '../errors';
import { enqueuedTokens } from './limits';
import { RoundSplitter, type LineSink } from './split';

/** A splitter into memory: the files as arrays of lines. */
function inMemory(limits: { maxLines: number; maxBytes: number; maxTokens?: number }) {
	const files: string[][] = [];
	const closed: number[] = [];
	const splitter = new RoundSplitter(async (index): Promise<LineSink> => {
		files[index] = [];
		return {
			write: async (line) => void files[index].push(line),
			close: async () => void closed.push(index)
		};
	}, limits);
	return { files, closed, splitter };
}

describe('RoundSplitter', () => {
	it('starts a new file at the line limit', async () => {
		const { files, closed, splitter } = inMemory({ maxLines: 3, maxBytes: 1e9 });
		for (let i = 0; i < 7; i++) await splitter.add(`{"n":${i}}`);
		const summary = await splitter.close();
		expect(files.map((f) => f.length)).toEqual([3, 3, 1]);
		expect(summary.map((f) => f.lines)).toEqual([3, 3, 1]);
		expect(closed).toEqual([0, 1, 2]);
		expect(files.flat().join('')).toBe(
			Array.from({ length: 7 }, (_, i) => `{"n":${i}}\n`).join('')
		);
	});

	it('starts a new file where the next line would pass the byte limit, counting UTF-8 bytes', async () => {
		// '{"t":"案"}\n' is 12 bytes (案 is 3).
		const { files, splitter } = inMemory({ maxLines: 100, maxBytes: 24 });
		for (let i = 0; i < 5; i++) await splitter.add('{"t":"案"}');
		const summary = await splitter.close();
		expect(files.map((f) => f.length)).toEqual([2, 2, 1]);
		expect(summary.map((f) => f.bytes)).toEqual([24, 24, 12]);
	});

	it('a line exactly at the byte limit fits alone', async () => {
		const { files, splitter } = inMemory({ maxLines: 100, maxBytes: 12 });
		await splitter.add('{"t":"案"}');
		await splitter.add('{"t":"案"}');
		await splitter.close();
		expect(files.map((f) => f.length)).toEqual([1, 1]);
	});

	it('refuses a request larger than a whole file, naming its size', async () => {
		const { splitter } = inMemory({ maxLines: 100, maxBytes: 10 });
		const error = await splitter.add('{"t":"too long"}').catch((e: unknown) => e);
		expect(error).toBeInstanceOf(UsageError);
		expect((error as Error).message).toMatch(/17 bytes.*10/);
	});

	it('starts a new file where the next request would pass the token budget', async () => {
		const { files, splitter } = inMemory({ maxLines: 100, maxBytes: 1e9, maxTokens: 1000 });
		for (const tokens of [400, 500, 200, 1000, 1, 999])
			await splitter.add(`{"t":${tokens}}`, tokens);
		const summary = await splitter.close();
		expect(files.map((f) => f.length)).toEqual([2, 1, 1, 2]);
		expect(summary.map((f) => f.tokens)).toEqual([900, 200, 1000, 1000]);
	});

	it('refuses a request over the whole token budget, naming its estimate', async () => {
		const { splitter } = inMemory({ maxLines: 100, maxBytes: 1e9, maxTokens: 1000 });
		const error = await splitter.add('{"t":1}', 1001).catch((e: unknown) => e);
		expect(error).toBeInstanceOf(UsageError);
		expect((error as Error).message).toMatch(/about 1001 enqueued tokens.*budget \(1000,/);
	});

	it('estimates a request as its prompt characters plus its max_tokens', () => {
		const body = { messages: [{ role: 'user', content: '案情abc' }], max_tokens: 100 };
		expect(enqueuedTokens(body)).toBe(105);
	});

	it('writes no file for an empty round', async () => {
		const { files, splitter } = inMemory({ maxLines: 1, maxBytes: 100 });
		expect(await splitter.close()).toEqual([]);
		expect(files).toEqual([]);
	});
});

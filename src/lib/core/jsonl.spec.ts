import { describe, expect, it } from 'vitest';
import { readLines, type SourceLine } from './jsonl';

const bytes = (text: string) => new TextEncoder().encode(text);

/** A source handing `pieces` one at a time, telling how many it handed so far. */
function source(pieces: Uint8Array[]) {
	let handed = 0;
	async function* read() {
		for (const p of pieces) {
			handed++;
			yield p;
		}
	}
	return { read, handed: () => handed };
}

async function all(lines: AsyncIterable<SourceLine>): Promise<SourceLine[]> {
	const out: SourceLine[] = [];
	for await (const l of lines) out.push(l);
	return out;
}

describe('readLines (the one line reader of large JSONL files)', () => {
	it('hands each line over as it arrives, split anywhere, a cut-off last line as it is', async () => {
		const text = '{"a":1}\n{"b":"é"}\r\n{"c":';
		const pieces = [...bytes(text)].map((b) => Uint8Array.of(b));
		expect(await all(readLines(source(pieces).read(), 100))).toEqual([
			{ line: 1, text: '{"a":1}\n' },
			{ line: 2, text: '{"b":"é"}\r\n' },
			{ line: 3, text: '{"c":' }
		]);
	});

	it('gives the first line before the source is read to its end', async () => {
		const pieces = Array.from({ length: 50 }, (_, i) => bytes(`{"n":${i}}\n`));
		const s = source(pieces);
		for await (const first of readLines(s.read(), 100)) {
			expect(first).toEqual({ line: 1, text: '{"n":0}\n' });
			expect(s.handed()).toBe(1);
			break;
		}
	});

	it('never holds more of a line than the bound: past it, its length is counted and its head kept', async () => {
		// 1,000 pieces of 1 KiB make one line of 1,000 KiB, twenty times the 50 KiB bound.
		const piece = bytes('x'.repeat(1024));
		const pieces = [bytes('{"custom_id":"lp1.a","x":"'), ...Array(1000).fill(piece), bytes('"}\n')];
		const got = await all(readLines(source([...pieces, bytes('{}\n')]).read(), 50 * 1024, 64));
		const line = 26 + 1000 * 1024 + 2;
		expect(got).toEqual([
			{ line: 1, bytes: line, head: `{"custom_id":"lp1.a","x":"${'x'.repeat(38)}`, ended: true },
			{ line: 2, text: '{}\n' }
		]);
	});

	it('reads a web stream (File.stream(), a fetch body) and cancels it when left early', async () => {
		let cancelled = false;
		const stream = new ReadableStream<Uint8Array>({
			pull: (c) => c.enqueue(bytes('{}\n')),
			cancel: () => void (cancelled = true)
		});
		for await (const l of readLines(stream, 10)) {
			expect(l).toEqual({ line: 1, text: '{}\n' });
			break;
		}
		expect(cancelled).toBe(true);
	});
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CheckpointError } from './errors';
import {
	decodeLayoutText,
	decodeUtf8,
	firstInvalidUtf8,
	formatBytes,
	stripBom,
	TextDecodeError
} from './text';

describe('decodeUtf8', () => {
	it('drops a leading BOM and keeps the rest verbatim', () => {
		const bytes = new TextEncoder().encode('\uFEFF[\r\n"民间借贷"]');
		expect(decodeUtf8(bytes)).toBe('[\r\n"民间借贷"]');
	});

	it('finds the same invalid bytes as the platform decoder', () => {
		const fatal = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
		fc.assert(
			fc.property(fc.uint8Array({ maxLength: 24 }), (bytes) => {
				let valid = true;
				try {
					fatal.decode(bytes);
				} catch {
					valid = false;
				}
				expect(firstInvalidUtf8(bytes) === bytes.length).toBe(valid);
			}),
			{ numRuns: 5000 }
		);
	});

	it.each([
		['GBK bytes on line 3', [0x5b, 0x0a, 0x0a, 0x20, 0x20, 0xc4, 0xe3, 0x5d], 3, 3, '0xC4'],
		['after Chinese text', [...new TextEncoder().encode('["法律'), 0xff], 1, 5, '0xFF'],
		['a character cut off at the end', [0x5b, 0xe6, 0xb3], 1, 2, '0xE6'],
		['an encoded surrogate', [0xed, 0xa0, 0x80], 1, 1, '0xED']
	])('names line and column: %s', (_name, bytes, line, column, byte) => {
		try {
			decodeUtf8(new Uint8Array(bytes));
			expect.unreachable();
		} catch (e) {
			expect(e).toBeInstanceOf(TextDecodeError);
			expect(e).toMatchObject({ line, column });
			expect((e as Error).message).toContain(byte);
		}
	});

	it('recognises UTF-16 and says to save as UTF-8', () => {
		expect(() => decodeUtf8(new Uint8Array([0xfe, 0xff, 0, 0x5b]))).toThrow(
			/UTF-16.*save it as UTF-8/
		);
	});
});

describe('stripBom', () => {
	it('drops one leading BOM and nothing else', () => {
		expect(stripBom('\uFEFF{"a":1}')).toBe('{"a":1}');
		expect(stripBom('{"a":"\uFEFF"}')).toBe('{"a":"\uFEFF"}');
		expect(stripBom('')).toBe('');
	});
});

describe('decodeLayoutText', () => {
	it('names the file and the place of the first bad byte', () => {
		const bytes = new Uint8Array([0x7b, 0x0a, 0xc4, 0xe3]);
		expect(() => decodeLayoutText(bytes, 'runs/r/m/manifest.json')).toThrow(CheckpointError);
		expect(() => decodeLayoutText(bytes, 'runs/r/m/manifest.json')).toThrow(
			/^runs\/r\/m\/manifest\.json: not UTF-8 text \(line 2, column 1: invalid UTF-8 \(byte 0xC4\)/
		);
	});

	it('drops a BOM as the dataset reader does', () => {
		expect(decodeLayoutText(new TextEncoder().encode('\uFEFFok'), 'f')).toBe('ok');
	});
});

describe('formatBytes', () => {
	it.each([
		[0, '0 B'],
		[812, '812 B'],
		[1536, '1.5 KB'],
		[20 * 1024 + 100, '20 KB'],
		[2 * 1024 ** 2, '2 MB'],
		[101 * 1024 ** 2, '101 MB'],
		[512 * 1024 ** 2, '512 MB'],
		[1.24 * 1024 ** 3, '1.2 GB']
	])('%i bytes → %s', (n, text) => {
		expect(formatBytes(n)).toBe(text);
	});
});

import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { sha256Hex, useSyncSha256 } from '../core/hash';
import { nodeSha256 } from './node-hash';

afterEach(() => useSyncSha256(null));

describe('nodeSha256', () => {
	it('gives the WebCrypto digest of the same UTF-8 bytes, for any string and bytes', async () => {
		const samples = ['', 'abc', '民间借贷纠纷', '😀', '\ud800 lone', 'x\udfffy', '\u0000\n'];
		await fc.assert(
			fc.asyncProperty(
				fc.oneof(fc.string({ unit: 'binary' }), fc.constantFrom(...samples)),
				async (s) => {
					expect(nodeSha256(s)).toBe(await sha256Hex(s));
				}
			),
			{ numRuns: 200 }
		);
		const bytes = new Uint8Array([0, 255, 10, 13]);
		expect(nodeSha256(bytes)).toBe(await sha256Hex(bytes));
	});

	it('is what sha256Hex uses once installed', async () => {
		const seen: unknown[] = [];
		useSyncSha256((d) => (seen.push(d), nodeSha256(d)));
		expect(await sha256Hex('abc')).toBe(
			'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'
		);
		expect(seen).toEqual(['abc']);
	});
});

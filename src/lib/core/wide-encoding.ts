/**
 * UTF-16 and UTF-32 told apart from UTF-8 before decoding. Their byte-order marks overlap
 * (UTF-32LE's `FF FE 00 00` starts like UTF-16LE's `FF FE`), and without a mark their text is
 * still recognisable: JSON starts with ASCII (`[`, `{`, a space), which these encodings write
 * with zero bytes around it, while UTF-8 JSON holds no zero byte at all.
 */

/** The wide encoding `bytes` are in (with or without a byte-order mark), or null. */
export function wideEncoding(bytes: Uint8Array): string | null {
	const [a, b, c, d] = bytes;
	if (a === 0xff && b === 0xfe && c === 0 && d === 0) return 'UTF-32 (little-endian)';
	if (a === 0 && b === 0 && c === 0xfe && d === 0xff) return 'UTF-32 (big-endian)';
	if (a === 0xff && b === 0xfe) return 'UTF-16 (little-endian)';
	if (a === 0xfe && b === 0xff) return 'UTF-16 (big-endian)';
	if (bytes.length < 4) return null;
	const noMark = ', without a byte-order mark';
	if (a !== 0 && b === 0 && c === 0 && d === 0) return `UTF-32 (little-endian${noMark})`;
	if (a === 0 && b === 0 && c === 0 && d !== 0) return `UTF-32 (big-endian${noMark})`;
	if (a !== 0 && b === 0 && c !== 0 && d === 0) return `UTF-16 (little-endian${noMark})`;
	if (a === 0 && b !== 0 && c === 0 && d !== 0) return `UTF-16 (big-endian${noMark})`;
	return null;
}

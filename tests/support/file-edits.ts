/** Edits that hide themselves from a check by size and times, for the resume-seal tests. */
import { execFileSync } from 'node:child_process';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { expect } from 'vitest';

/**
 * Rewrites a file in place with the same byte length and sets its modification time back to the
 * nanosecond (`touch -d @s.ns`), as a careful hand edit or a tool preserving times would.
 */
export async function editKeepingSizeAndTimes(
	path: string,
	from: string,
	to: string
): Promise<void> {
	const before = await stat(path, { bigint: true });
	const text = await readFile(path, 'utf8');
	expect(text).toContain(from);
	expect(Buffer.byteLength(from)).toBe(Buffer.byteLength(to));
	await writeFile(path, text.replace(from, to));
	const ns = (t: bigint) => `@${t / 1_000_000_000n}.${String(t % 1_000_000_000n).padStart(9, '0')}`;
	execFileSync('touch', ['-m', '-d', ns(before.mtimeNs), path]);
	const after = await stat(path, { bigint: true });
	expect([after.size, after.mtimeNs, after.ino]).toEqual([before.size, before.mtimeNs, before.ino]);
}

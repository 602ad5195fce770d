/**
 * The README stays a five-minute read that holds the exact commands `.ci/run` and a newcomer
 * rely on, and links only to files that exist; every `PROTOCOL.md §N` cited anywhere in the
 * repository names a section PROTOCOL.md has.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../../..');
const SELF = 'tests/unit/docs/readme-protocol-doc.spec.ts';
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

describe('README.md', () => {
	const readme = read('README.md');

	it('fits in 8 KB', () => {
		expect(Buffer.byteLength(readme)).toBeLessThanOrEqual(8 * 1024);
	});

	it('holds the two commands, the test command as .ci/run runs it', () => {
		const ci = read('.ci/run');
		expect(ci).toMatch(/^npm ci && npm test$/m);
		expect(readme).toContain('```sh\nnpm ci && npm test\n```');
		expect(readme).toContain('```sh\nnpm ci && npm start\n```');
	});

	it('says what LCA, DCG and LJP measure', () => {
		for (const metric of ['LCA', 'DCG', 'LJP'])
			expect(readme).toMatch(new RegExp(`^- \\*\\*${metric}\\*\\*`, 'm'));
	});

	it('links only to files that exist', () => {
		const links = [...readme.matchAll(/\]\(([^)#\s]+)\)/g)].map((m) => m[1]);
		expect(links.length).toBeGreaterThan(0);
		expect(links.filter((l) => !/^https?:/.test(l) && !existsSync(join(ROOT, l)))).toEqual([]);
	});
});

/** The numbers of PROTOCOL.md's sections (`## N. Title`). */
export function protocolSections(markdown: string): number[] {
	return [...markdown.matchAll(/^## (\d+)\. /gm)].map((m) => Number(m[1]));
}

/** Every section number a text cites as `PROTOCOL.md §N`, `§N.M` or `§N–§M`, with its line. */
export function citedSections(text: string): { line: number; section: number }[] {
	return text
		.split('\n')
		.flatMap((line, i) =>
			[...line.matchAll(/PROTOCOL\.md\s+§(\d+)(?:\.\d+[a-z]?)?(?:[–-]§?(\d+))?/g)].flatMap((m) =>
				[m[1], m[2]]
					.filter((n) => n !== undefined)
					.map((n) => ({ line: i + 1, section: Number(n) }))
			)
		);
}

describe('PROTOCOL.md', () => {
	const sections = protocolSections(read('PROTOCOL.md'));

	it('numbers its sections 1 to 8 in order', () => {
		expect(sections).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
	});

	it('is cited only by sections it has', () => {
		const files = execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' })
			.split('\0')
			// This file's own examples cite a section on purpose.
			.filter((f) => /\.(ts|js|svelte|md|json)$/.test(f) && !f.endsWith(SELF))
			.filter((f) => existsSync(join(ROOT, f)));
		const wrong = files.flatMap((file) =>
			citedSections(read(file))
				.filter(({ section }) => !sections.includes(section))
				.map(({ line, section }) => `${file}:${line}: §${section}`)
		);
		expect(wrong).toEqual([]);
	});

	it.each([
		['see PROTOCOL.md §5', [5]],
		['(PROTOCOL.md §4.2)', [4]],
		['PROTOCOL.md §5–§6 and PROTOCOL.md §7–8', [5, 6, 7, 8]],
		['PROTOCOL.md §9', [9]],
		['RFC 9110 §3', []]
	])('reads %s as citing %j', (text, expected) => {
		expect(citedSections(text).map((c) => c.section)).toEqual(expected);
	});
});

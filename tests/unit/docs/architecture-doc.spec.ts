/**
 * ARCHITECTURE.md's "Where things live" table lists every folder of src/lib and src/cli (a
 * subfolder either by its path or by its name in its parent's row), and names no path that is
 * not there, so the tour cannot fall behind a move.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tableCells } from './test-references';

const ROOT = resolve(import.meta.dirname, '../../..');

function folders(dir: string): string[] {
	return (
		readdirSync(join(ROOT, dir))
			.filter((name) => statSync(join(ROOT, dir, name)).isDirectory())
			// Generated code (paraglide's messages) is one row, whatever it holds.
			.flatMap((name) => [
				`${dir}/${name}/`,
				...(name === 'paraglide' ? [] : folders(`${dir}/${name}`))
			])
	);
}

/** The path cells of the first table, each as the backticked names it holds. */
function pathCells(): string[][] {
	const doc = readFileSync(join(ROOT, 'ARCHITECTURE.md'), 'utf8');
	const table = doc.slice(doc.indexOf('## Where things live'), doc.indexOf('## Data flow'));
	return table
		.split('\n')
		.filter((line) => line.startsWith('|') && !/^\|\s*(path|-+)\s*\|/.test(line))
		.map((line) => [...tableCells(line)[0].matchAll(/`([^`]+)`/g)].map((m) => m[1]));
}

describe('ARCHITECTURE.md', () => {
	const cells = pathCells();

	it('lists every folder of src/lib and src/cli', () => {
		const listed = (folder: string) =>
			cells.some(
				(names) =>
					names.includes(folder) ||
					names.some(
						(parent) => folder.startsWith(parent) && names.includes(folder.slice(parent.length))
					)
			);
		const all = ['src/lib/', 'src/cli/', ...folders('src/lib'), ...folders('src/cli')].filter(
			(f) => f !== 'src/lib/'
		);
		expect(all.filter((f) => !listed(f))).toEqual([]);
	});

	it('names only paths that exist', () => {
		const full = /^(src|tests|static)\//;
		const missing = cells.flatMap((names) => {
			// After the first, a bare name is relative to the first path's folder.
			const folder = names[0].slice(0, names[0].lastIndexOf('/') + 1);
			return names
				.map((name) => (full.test(name) ? name : `${folder}${name}`))
				.filter((path) => !existsSync(join(ROOT, path)));
		});
		expect(missing).toEqual([]);
	});
});

import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import * as prettier from 'prettier';
import { describe, expect, it } from 'vitest';
import {
	BLOCK_END,
	BLOCK_START,
	markdownBlock,
	replaceBlock,
	textTable,
	type ReportRow,
	type RunContext
} from './report';

const ROWS: ReportRow[] = [
	{ bench: 'engine', name: 'wall / ideal | c = 16', value: 1.123, unit: '×', target: 1.2 },
	{ bench: 'idb', name: 'resume scan', value: 612, unit: 'ms', target: 500 },
	{ bench: 'site', name: 'JS size', value: 80, unit: 'kB', target: 50, better: 'higher' },
	{ bench: 'bundle', name: 'export', value: 2000.5, unit: 'ms', target: null },
	{ bench: 'results', name: 'results', error: 'boom\nstack line' }
];

const CONTEXT: RunContext = {
	startedAt: '2026-12-03T09:40:12.000Z',
	endedAt: '2026-12-03T09:46:55.000Z',
	cores: 2,
	cpuModel: 'Some CPU @ 2.1GHz',
	loadAtStart: [3.5, 2.25, 1],
	loadAtEnd: [4, 3, 2],
	node: '20.20.2',
	commit: 'abc1234 + uncommitted changes'
};

describe('the bench report', () => {
	it('marks each row against its target, on the side the row asks for', () => {
		const lines = textTable(ROWS).split('\n');
		expect(lines[0]).toMatch(/^name\s+value\s+unit\s+target\s+met\?$/);
		expect(lines[2]).toMatch(/1\.12\s+×\s+≤ 1\.20\s+yes$/);
		expect(lines[3]).toMatch(/612\s+ms\s+≤ 500\s+NO$/);
		expect(lines[4]).toMatch(/80\s+kB\s+≥ 50\s+yes$/);
		expect(lines[5]).toMatch(/2000\.50\s+ms\s+—\s+—$/);
		expect(lines[6]).toMatch(/error: boom\s+NO$/);
	});

	it('writes every row as a markdown row, with when, which commit and how busy the machine was', () => {
		const block = markdownBlock(ROWS, CONTEXT);
		expect(block.startsWith(`${BLOCK_START}\n`)).toBe(true);
		expect(block.endsWith(`\n${BLOCK_END}`)).toBe(true);
		expect(block).toContain(
			'2026-12-03 09:40–09:46 UTC, commit abc1234 + uncommitted changes, Node 20.20.2, 2 cores ' +
				'(Some CPU @ 2.1GHz); load average 1 / 5 / 15 min 3.50 / 2.25 / 1.00 at start, ' +
				'4.00 / 3.00 / 2.00 at end'
		);
		const table = block.split('\n').filter((l) => l.startsWith('|'));
		expect(table).toHaveLength(2 + ROWS.length);
		expect(table[2]).toBe('| wall / ideal \\| c = 16 | 1.12 | × | ≤ 1.20 | yes |');
		expect(table[6]).toBe('| results | error: boom |  |  | NO |');
	});

	it('replaces only the generated block, and refuses a document without its markers', () => {
		const doc = `# Perf\n\nprose\n\n${BLOCK_START}\nold table\n${BLOCK_END}\n\nmore prose\n`;
		const next = replaceBlock(doc, markdownBlock(ROWS, CONTEXT));
		expect(next.startsWith('# Perf\n\nprose\n\n')).toBe(true);
		expect(next.endsWith(`${BLOCK_END}\n\nmore prose\n`)).toBe(true);
		expect(next).not.toContain('old table');
		// Running it again gives the same document: the markers survive.
		expect(replaceBlock(next, markdownBlock(ROWS, CONTEXT))).toBe(next);
		expect(() => replaceBlock('# no markers', 'x')).toThrow(/needs the lines/);
		expect(() => replaceBlock(`${BLOCK_END}\n${BLOCK_START}`, 'x')).toThrow(/in that order/);
	});

	it('fits PERFORMANCE.md, whose markers survive prettier with the rows intact', async () => {
		const path = resolve(import.meta.dirname, '../../PERFORMANCE.md');
		const doc = replaceBlock(readFileSync(path, 'utf8'), markdownBlock(ROWS, CONTEXT));
		const config = (await prettier.resolveConfig(path)) ?? {};
		const formatted = await prettier.format(doc, { ...config, filepath: path });
		// The next run finds its block again, and the escaped pipe is still one cell.
		expect(replaceBlock(formatted, markdownBlock(ROWS, CONTEXT))).toBe(doc);
		expect(formatted).toMatch(/\| wall \/ ideal \\\| c = 16 +\| +1\.12 \|/);
	});
});

/**
 * The bench's table, as text for the terminal and as markdown for PERFORMANCE.md. The markdown
 * goes between two markers in that file, so its figures are always a bench's own output (with
 * when, where and how busy the machine was), never a hand copy.
 */
import type { BenchRow } from './types';

/** A row of the table: a measurement, or a bench that failed. */
export type ReportRow =
	(BenchRow & { bench: string }) | { bench: string; name: string; error: string };

/** Where and when the bench ran. */
export interface RunContext {
	/** ISO times, UTC. */
	startedAt: string;
	endedAt: string;
	/** CPUs Node may use (`os.availableParallelism()`, what `nproc` says). */
	cores: number;
	cpuModel: string;
	/** `os.loadavg()` (1, 5, 15 min) when the bench started and when it ended. */
	loadAtStart: readonly number[];
	loadAtEnd: readonly number[];
	node: string;
	/** `git rev-parse --short HEAD`, with " + uncommitted changes" when the tree is dirty. */
	commit: string;
}

export const BLOCK_START = '<!-- bench:start (written by npm run bench; do not edit by hand) -->';
export const BLOCK_END = '<!-- bench:end -->';

/** Whether a row meets its target; null for informational rows and failed benches. */
export function met(r: ReportRow): boolean | null {
	if ('error' in r || r.target === null) return null;
	return (r.better ?? 'lower') === 'lower' ? r.value <= r.target : r.value >= r.target;
}

const format = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(2));

function firstLine(text: string): string {
	const line = text.split('\n')[0];
	return line.length > 90 ? `${line.slice(0, 89)}…` : line;
}

/** The table's cells: a header, then one line per row. */
export function tableCells(rows: readonly ReportRow[]): string[][] {
	return [
		['name', 'value', 'unit', 'target', 'met?'],
		...rows.map((r) => {
			if ('error' in r) return [r.name, `error: ${firstLine(r.error)}`, '', '', 'NO'];
			const ok = met(r);
			const target =
				r.target === null
					? '—'
					: `${(r.better ?? 'lower') === 'lower' ? '≤' : '≥'} ${format(r.target)}`;
			return [r.name, format(r.value), r.unit, target, ok === null ? '—' : ok ? 'yes' : 'NO'];
		})
	];
}

/** The table aligned in columns, for the terminal. */
export function textTable(rows: readonly ReportRow[]): string {
	const table = tableCells(rows);
	const widths = table[0].map((_, i) => Math.max(...table.map((row) => row[i].length)));
	const line = (row: string[]) =>
		row
			.map((cell, c) => (c === 1 ? cell.padStart(widths[c]) : cell.padEnd(widths[c])))
			.join('  ')
			.trimEnd();
	return [line(table[0]), widths.map((w) => '-'.repeat(w)).join('  '), ...table.slice(1).map(line)]
		.map((l) => `${l}\n`)
		.join('');
}

/** A cell's text made safe for a markdown table: pipes escaped, no line breaks. */
function markdownCell(text: string): string {
	return text
		.replace(/\\/g, '\\\\')
		.replace(/\|/g, '\\|')
		.replace(/\s*\n\s*/g, ' ');
}

const loads = (l: readonly number[]) => l.map((x) => x.toFixed(2)).join(' / ');

/** One line saying when, where and under what load the bench ran. */
export function contextLine(c: RunContext): string {
	return (
		`${c.startedAt.slice(0, 16).replace('T', ' ')}–${c.endedAt.slice(11, 16)} UTC, commit ` +
		`${c.commit}, Node ${c.node}, ${c.cores} cores (${c.cpuModel}); load average 1 / 5 / 15 min ` +
		`${loads(c.loadAtStart)} at start, ${loads(c.loadAtEnd)} at end`
	);
}

/** The generated block of PERFORMANCE.md: the markers, the context line and the table. */
export function markdownBlock(rows: readonly ReportRow[], c: RunContext): string {
	const [head, ...body] = tableCells(rows);
	const row = (cells: string[]) => `| ${cells.map(markdownCell).join(' | ')} |`;
	return [
		BLOCK_START,
		'',
		`\`npm run bench\`, ${contextLine(c)}:`,
		'',
		row(head),
		`| ${head.map((_, i) => (i === 1 ? '--:' : '---')).join(' | ')} |`,
		...body.map(row),
		'',
		BLOCK_END
	].join('\n');
}

/** `doc` with the text between the markers replaced by `block`; the markers must be there once. */
export function replaceBlock(doc: string, block: string): string {
	const start = doc.indexOf(BLOCK_START);
	const end = doc.indexOf(BLOCK_END);
	if (start < 0 || end < start || doc.indexOf(BLOCK_START, start + 1) >= 0) {
		throw new Error(
			`the document needs the lines "${BLOCK_START}" and "${BLOCK_END}", once each and in that order`
		);
	}
	return doc.slice(0, start) + block + doc.slice(end + BLOCK_END.length);
}

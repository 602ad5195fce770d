/**
 * The table beside each chart, and its copies as CSV, Markdown and LaTeX. All four show the
 * same numbers with the same four decimals as the CLI's text report; an undefined value is
 * "—" with a numbered note that says why.
 */
import type { Cell, Figure } from './figures';

export interface TableCell {
	value: number | null;
	sd?: number | null;
	/** 1-based numbers of the table's notes that apply to this cell. */
	marks: number[];
	/** The series and category of the figure this cell shows. */
	series: string;
	category: string;
}

/** A row or column heading: the full label (copies), a short one (screen), a series colour. */
export interface Heading {
	label: string;
	short: string;
	color: string | null;
}

export interface TableModel {
	caption: string;
	corner: string;
	columns: Heading[];
	rows: (Heading & { cells: TableCell[] })[];
	notes: string[];
	withSd: boolean;
}

/** Four decimals, as `results` prints them. */
export function formatNumber(value: number | null | undefined): string {
	return value === null || value === undefined ? '—' : value.toFixed(4);
}

/** The cell as the table shows it, without note marks. */
export function cellText(cell: Pick<TableCell, 'value' | 'sd'>, withSd: boolean): string {
	if (cell.value === null) return '—';
	return withSd
		? `${formatNumber(cell.value)} ± ${formatNumber(cell.sd)}`
		: formatNumber(cell.value);
}

/** Lays a figure out as a table, numbering its distinct notes in reading order. */
export function tableOf(figure: Figure): TableModel {
	const notes: string[] = [];
	const mark = (cell: Cell): number[] =>
		cell.notes.map((note) => {
			const at = notes.indexOf(note);
			if (at >= 0) return at + 1;
			notes.push(note);
			return notes.length;
		});
	const cellOf = (s: number, c: number): TableCell => ({
		value: figure.cells[s][c].value,
		sd: figure.cells[s][c].sd,
		marks: mark(figure.cells[s][c]),
		series: figure.series[s].label,
		category: figure.categories[c]
	});
	const bySeries = figure.rows === 'series';
	const seriesHeading = (i: number): Heading => ({
		label: figure.series[i].label,
		short: figure.series[i].short,
		color: figure.series[i].color
	});
	const categoryHeading = (c: number): Heading => ({
		label: figure.categories[c],
		short: figure.categories[c],
		color: null
	});
	const rows = bySeries
		? figure.series.map((_, i) => ({
				...seriesHeading(i),
				cells: figure.categories.map((_, c) => cellOf(i, c))
			}))
		: figure.categories.map((_, c) => ({
				...categoryHeading(c),
				cells: figure.series.map((_, s) => cellOf(s, c))
			}));
	return {
		caption: figure.title,
		corner: bySeries ? (figure.withSd ? 'Model (runs)' : 'Run') : figure.categoryTitle,
		columns: bySeries
			? figure.categories.map((_, c) => categoryHeading(c))
			: figure.series.map((_, i) => seriesHeading(i)),
		rows,
		notes,
		withSd: figure.withSd
	};
}

const SUPERSCRIPT = '⁰¹²³⁴⁵⁶⁷⁸⁹';

/** Note marks as superscript digits: `¹²`. */
export function superscript(marks: readonly number[]): string {
	return marks
		.map((m) =>
			String(m)
				.split('')
				.map((d) => SUPERSCRIPT[Number(d)])
				.join('')
		)
		.join('˒');
}

function csvField(text: string): string {
	return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * CSV for a spreadsheet: plain numbers (an undefined value is an empty field), an SD column after
 * each value in mean ± SD tables, a `notes` column with the note numbers, then the notes.
 */
export function toCsv(table: TableModel): string {
	const head = [
		table.corner,
		...table.columns.flatMap(({ label }) => (table.withSd ? [label, `${label} SD`] : [label])),
		'notes'
	];
	const num = (v: number | null | undefined) => (v === null || v === undefined ? '' : v.toFixed(4));
	const lines = [head.map(csvField).join(',')];
	for (const row of table.rows) {
		const marks = [...new Set(row.cells.flatMap((c) => c.marks))].sort((a, b) => a - b);
		const fields = [
			row.label,
			...row.cells.flatMap((c) => (table.withSd ? [num(c.value), num(c.sd)] : [num(c.value)])),
			marks.map((m) => `[${m}]`).join(' ')
		];
		lines.push(fields.map(csvField).join(','));
	}
	if (table.notes.length) {
		lines.push('');
		table.notes.forEach((note, i) => lines.push([`[${i + 1}]`, note].map(csvField).join(',')));
	}
	return `${lines.join('\n')}\n`;
}

function mdEscape(text: string): string {
	return text.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

/** A GitHub-flavoured Markdown table with its caption and notes. */
export function toMarkdown(table: TableModel): string {
	const head = [table.corner, ...table.columns.map((c) => c.label)].map(mdEscape);
	const lines = [
		`**${mdEscape(table.caption)}**`,
		'',
		`| ${head.join(' | ')} |`,
		`| ${head.map((_, i) => (i === 0 ? '---' : '---:')).join(' | ')} |`
	];
	for (const row of table.rows) {
		const cells = row.cells.map((c) => cellText(c, table.withSd) + superscript(c.marks));
		lines.push(`| ${[mdEscape(row.label), ...cells].join(' | ')} |`);
	}
	if (table.notes.length) {
		lines.push('');
		table.notes.forEach((note, i) => lines.push(`${superscript([i + 1])} ${mdEscape(note)}  `));
	}
	return `${lines.join('\n')}\n`;
}

const LATEX_SPECIAL: Record<string, string> = {
	'\\': '\\textbackslash{}',
	'&': '\\&',
	'%': '\\%',
	$: '\\$',
	'#': '\\#',
	_: '\\_',
	'{': '\\{',
	'}': '\\}',
	'~': '\\textasciitilde{}',
	'^': '\\textasciicircum{}',
	'—': '---',
	'±': '$\\pm$'
};

export function latexEscape(text: string): string {
	return text.replace(/[\\&%$#_{}~^—±]/g, (ch) => LATEX_SPECIAL[ch]);
}

/** A booktabs table (needs `\usepackage{booktabs}`; Chinese labels need xeCJK or ctex). */
export function toLatex(table: TableModel): string {
	const cell = (c: TableCell) => {
		const text =
			c.value === null
				? '---'
				: table.withSd
					? `${formatNumber(c.value)} $\\pm$ ${c.sd === null || c.sd === undefined ? '---' : formatNumber(c.sd)}`
					: formatNumber(c.value);
		return c.marks.length ? `${text}$^{${c.marks.join(',')}}$` : text;
	};
	const lines = [
		'\\begin{table}[t]',
		'\\centering',
		`\\caption{${latexEscape(table.caption)}}`,
		`\\begin{tabular}{l${'r'.repeat(table.columns.length)}}`,
		'\\toprule',
		`${[table.corner, ...table.columns.map((c) => c.label)].map(latexEscape).join(' & ')} \\\\`,
		'\\midrule',
		...table.rows.map(
			(row) => `${[latexEscape(row.label), ...row.cells.map(cell)].join(' & ')} \\\\`
		),
		'\\bottomrule',
		'\\end{tabular}'
	];
	if (table.notes.length) {
		lines.push('\\par\\smallskip\\footnotesize');
		table.notes.forEach((note, i) =>
			lines.push(`$^{${i + 1}}$ ${latexEscape(note)}${i < table.notes.length - 1 ? '\\\\' : ''}`)
		);
	}
	lines.push('\\end{table}');
	return `${lines.join('\n')}\n`;
}

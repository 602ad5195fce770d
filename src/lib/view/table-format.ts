/**
 * The table beside each chart, and the cell texts of its copies as CSV, Markdown and LaTeX
 * (`table-csv.ts`, `table-markdown.ts`, `table-latex.ts`). All four show the same numbers with
 * the same four decimals as the CLI's text report; an undefined value is "—" with a numbered
 * note that says why.
 */
import { formatInterval, formatNumber, UNDEFINED } from '$lib/core/report/format';
import { m } from '$lib/paraglide/messages';
import type { Locale } from '$lib/paraglide/runtime';
import type { Cell, Figure } from './figures';

export interface TableCell {
	value: number | null;
	sd?: number | null;
	ci?: [number, number] | null;
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
	rows: (Heading & { cells: TableCell[]; counts?: string })[];
	notes: string[];
	withSd: boolean;
	withCi: boolean;
	/** Class tables: what each class's figures rest on (a `Cases · claims` column). */
	withCounts: boolean;
	/** The language of its words (its figure's). @default the interface's */
	locale?: Locale;
}

/** Heading of the counts column of class tables. */
export function countsHeading(locale?: Locale): string {
	return m.results_col_counts({}, { locale });
}

/**
 * The cell as the table shows it, without note marks: `0.6200`, `0.6200 ± 0.0100` (groups),
 * `0.6200 [0.5700, 0.6600]` with its bootstrap interval. A group of one run has no SD but
 * does have its run's interval, so it reads `0.6200 [0.5700, 0.6600]` rather than `± —`.
 */
export function cellText(cell: Pick<TableCell, 'value' | 'sd' | 'ci'>, withSd: boolean): string {
	if (cell.value === null) return UNDEFINED;
	const ci = cell.ci ? ` ${formatInterval(cell.ci)}` : '';
	if (!withSd || (ci && (cell.sd === null || cell.sd === undefined))) {
		return formatNumber(cell.value) + ci;
	}
	return `${formatNumber(cell.value)} ± ${formatNumber(cell.sd)}${ci}`;
}

/** `12 cases, 30 claims` (claims only where the figure is about claims). */
export function countsText(
	counts: { cases: number; claims: number | null } | undefined,
	claims: boolean,
	locale?: Locale
): string {
	if (!counts) return UNDEFINED;
	const o = { locale };
	const cases =
		counts.cases === 1 ? m.results_cases_one({}, o) : m.results_cases({ count: counts.cases }, o);
	if (!claims || counts.claims === null) return cases;
	const n = counts.claims;
	const claimText = n === 1 ? m.results_claims_one({}, o) : m.results_claims({ count: n }, o);
	return m.results_cases_claims({ cases, claims: claimText }, o);
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
		ci: figure.withCi ? (figure.cells[s][c].ci ?? null) : undefined,
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
				cells: figure.series.map((_, s) => cellOf(s, c)),
				counts: classCounts(figure, c)
			}));
	const o = { locale: figure.locale };
	return {
		caption: figure.title,
		corner: bySeries
			? figure.withSd
				? m.results_col_model_runs({}, o)
				: m.results_col_run({}, o)
			: figure.categoryTitle,
		columns: bySeries
			? figure.categories.map((_, c) => categoryHeading(c))
			: figure.series.map((_, i) => seriesHeading(i)),
		rows,
		notes,
		withSd: figure.withSd,
		withCi: figure.withCi,
		withCounts: !bySeries,
		locale: figure.locale
	};
}

/** The counts of class `c`: one text when every series agrees, else each series' in order. */
function classCounts(figure: Figure, c: number): string {
	const texts = figure.cells.map((row) =>
		countsText(row[c].counts, figure.claims ?? false, figure.locale)
	);
	const distinct = [...new Set(texts)];
	return distinct.length <= 1 ? (distinct[0] ?? UNDEFINED) : texts.join(' / ');
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

/** Whether a cell of the table shows a bracketed interval: only then does its note belong. */
export function hasBrackets(table: TableModel): boolean {
	return table.withCi && table.rows.some((r) => r.cells.some((c) => c.value !== null && !!c.ci));
}

/** What the brackets of a table with intervals are: one sentence under the table. */
export function ciNote(locale?: Locale): string {
	return m.results_ci_note({}, { locale });
}

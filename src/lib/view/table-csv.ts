/** The table beside a chart as CSV, for a spreadsheet (`table-format.ts` builds the table). */
import { m } from '$lib/paraglide/messages';
import { csvCell } from '$lib/core/text/csv-cell';
import { countsHeading, type TableModel } from './table-format';

/**
 * CSV for a spreadsheet: plain numbers (an undefined value is an empty field), an SD column after
 * each value in mean ± SD tables, a `notes` column with the note numbers, then the notes. Every
 * field goes through `csvCell`: figures as numbers, labels and notes (class names, model ids
 * from files) as text a spreadsheet never runs as a formula.
 */
export function toCsv(table: TableModel): string {
	const o = { locale: table.locale };
	const head = [
		table.corner,
		...(table.withCounts ? [countsHeading(table.locale)] : []),
		...table.columns.flatMap(({ label }) => [
			label,
			...(table.withSd ? [m.results_csv_sd({ label }, o)] : []),
			...(table.withCi
				? [m.results_csv_ci_low({ label }, o), m.results_csv_ci_high({ label }, o)]
				: [])
		]),
		m.results_csv_notes({}, o)
	];
	const lines = [head.map((h) => csvCell(h)).join(',')];
	for (const row of table.rows) {
		const marks = [...new Set(row.cells.flatMap((c) => c.marks))].sort((a, b) => a - b);
		const fields = [
			row.label,
			...(table.withCounts ? [row.counts ?? ''] : []),
			...row.cells.flatMap((c) => [
				c.value,
				...(table.withSd ? [c.sd] : []),
				...(table.withCi ? [c.ci?.[0], c.ci?.[1]] : [])
			]),
			marks.map((m) => `[${m}]`).join(' ')
		];
		lines.push(fields.map((f) => csvCell(f)).join(','));
	}
	if (table.notes.length) {
		lines.push('');
		table.notes.forEach((note, i) =>
			lines.push([`[${i + 1}]`, note].map((f) => csvCell(f)).join(','))
		);
	}
	return `${lines.join('\n')}\n`;
}

/** The table beside a chart as a LaTeX booktabs table (`table-format.ts` builds the table). */
import { m } from '$lib/paraglide/messages';
import {
	cellText,
	ciNote,
	countsHeading,
	hasBrackets,
	type TableCell,
	type TableModel
} from './table-format';

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

/**
 * A booktabs table. Its first lines are comments naming the packages it needs: booktabs, and
 * xeCJK (XeLaTeX) or ctex for the Chinese of class names and verdicts.
 */
export function toLatex(table: TableModel): string {
	const cell = (c: TableCell) => {
		const text = c.value === null ? '---' : latexEscape(cellText(c, table.withSd));
		return c.marks.length ? `${text}$^{${c.marks.join(',')}}$` : text;
	};
	const counts = (row: TableModel['rows'][number]) =>
		table.withCounts ? [latexEscape(row.counts ?? '')] : [];
	const lines = [
		`% ${m.results_latex_needs({ booktabs: '\\usepackage{booktabs}' }, { locale: table.locale })}`,
		`% ${m.results_latex_cjk({ xecjk: '\\usepackage{xeCJK}', ctex: '\\usepackage{ctex}' }, { locale: table.locale })}`,
		'\\begin{table}[t]',
		'\\centering',
		`\\caption{${latexEscape(table.caption)}}`,
		`\\begin{tabular}{l${table.withCounts ? 'l' : ''}${'r'.repeat(table.columns.length)}}`,
		'\\toprule',
		`${[table.corner, ...(table.withCounts ? [countsHeading(table.locale)] : []), ...table.columns.map((c) => c.label)].map(latexEscape).join(' & ')} \\\\`,
		'\\midrule',
		...table.rows.map(
			(row) =>
				`${[latexEscape(row.label), ...counts(row), ...row.cells.map(cell)].join(' & ')} \\\\`
		),
		'\\bottomrule',
		'\\end{tabular}'
	];
	if (hasBrackets(table)) {
		lines.push(`\\par\\smallskip\\footnotesize ${latexEscape(ciNote(table.locale))}`);
	}
	if (table.notes.length) {
		lines.push('\\par\\smallskip\\footnotesize');
		table.notes.forEach((note, i) =>
			lines.push(`$^{${i + 1}}$ ${latexEscape(note)}${i < table.notes.length - 1 ? '\\\\' : ''}`)
		);
	}
	lines.push('\\end{table}');
	return `${lines.join('\n')}\n`;
}

/** The table beside a chart as a Markdown table (`table-format.ts` builds the table). */
import {
	cellText,
	ciNote,
	countsHeading,
	hasBrackets,
	superscript,
	type TableModel
} from './table-format';

function mdEscape(text: string): string {
	return text.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

/** A GitHub-flavoured Markdown table with its caption and notes. */
export function toMarkdown(table: TableModel): string {
	const head = [
		table.corner,
		...(table.withCounts ? [countsHeading(table.locale)] : []),
		...table.columns.map((c) => c.label)
	].map(mdEscape);
	const lines = [
		`**${mdEscape(table.caption)}**`,
		'',
		`| ${head.join(' | ')} |`,
		`| ${head.map((_, i) => (i === 0 ? '---' : '---:')).join(' | ')} |`
	];
	for (const row of table.rows) {
		const cells = row.cells.map((c) => cellText(c, table.withSd) + superscript(c.marks));
		const counts = table.withCounts ? [mdEscape(row.counts ?? '')] : [];
		lines.push(`| ${[mdEscape(row.label), ...counts, ...cells].join(' | ')} |`);
	}
	if (hasBrackets(table)) lines.push('', `${ciNote(table.locale)}  `);
	if (table.notes.length) {
		lines.push('');
		table.notes.forEach((note, i) => lines.push(`${superscript([i + 1])} ${mdEscape(note)}  `));
	}
	return `${lines.join('\n')}\n`;
}

/**
 * The paper's table as LaTeX (booktabs), Markdown and CSV (README.md, "Leaderboard"). Bold: the
 * best mean of a column; †: not significantly different from the best (paired case bootstrap,
 * Holm-corrected, α = 0.05); no mark, and an empty CSV cell, where no test was run, with the
 * caption saying why. Model ids are escaped for the format they go into.
 */
import type { CoreText } from '../said';
import { english } from '../voice';
import { csvCell } from '../text/csv-cell';
import { escapeLatex, escapeMarkdown } from '../text/latex';
import { COLUMN, LEADERBOARD_COLUMNS } from '../protocol/metrics';
import { meanSd, moneyText, tokensText } from './cells';
import type { PaperRow } from './paper-table';

export const EXPORT_FORMATS = ['latex', 'markdown', 'csv'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

const hasCosts = (rows: readonly PaperRow[]) =>
	rows.some((r) => (r.cost?.tokens_per_run ?? null) !== null);
const currencyOf = (currency: string | undefined) => currency ?? 'USD';

/** What the exports need besides the rows. */
export interface ExportOptions {
	/** The prices' currency. @default 'USD' */
	currency?: string;
	/** Why no pair was tested (`LeaderboardScope.untested`); null or absent: the tests ran. */
	untested?: CoreText | null;
}

export const LEGEND =
	'Mean ± SD over n runs. Bold: best; †: not significantly different from the best (paired case bootstrap, two-sided, Holm-corrected, α = 0.05).';

/** Why ranks and ties can disagree: they answer different questions. */
export const RANKS_AND_TIES =
	'A rank interval is each model’s own (marginal: how far its rank moves over resampled cases); a tie is a Holm-corrected pairwise test, so a model can have a rank interval such as 4 [4–4] and still be tied with another.';

/** Which interval a cell shows (`ci_method`), for the outputs that show intervals. */
export const INTERVALS =
	'Intervals: the 95% percentile case bootstrap of the mean; W: Wilson’s score interval over the cases instead, where every resample gave the same share (a share at 0 or 1: Acc_C, Acc_U, DCG success); none where that happens to Macro-F1 or QWK.';

/** A pair not tested while others were (a value undefined in most resamples). */
export const NOT_TESTED = 'No mark where a model could not be tested against the best.';

const sentence = (text: string) => `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;

/**
 * The legend of a table: bold and † as tested, or, with no test, that none ran and why; then why
 * ranks and ties can disagree. `bold` names how the best is marked (`Bold`, `*`).
 */
export function tableLegend(
	rows: readonly PaperRow[],
	untested: CoreText | null | undefined,
	bold = 'Bold'
): string {
	if (untested) return `Mean ± SD over n runs. ${bold}: best. ${sentence(english(untested))}`;
	const parts = [LEGEND.replace('Bold: best; ', `${bold}: best; `)];
	const unmarked = rows.some((r) =>
		LEADERBOARD_COLUMNS.some((c) => r.cells[c].tied_with_best === null)
	);
	if (unmarked) parts.push(NOT_TESTED);
	parts.push(RANKS_AND_TIES);
	return parts.join(' ');
}

/** The table as a booktabs `table` environment (needs `\usepackage{booktabs}`). */
export function leaderboardLatex(rows: readonly PaperRow[], options: ExportOptions = {}): string {
	const { currency } = options;
	const costs = hasCosts(rows);
	const heads = [
		'Model',
		'$n$',
		...LEADERBOARD_COLUMNS.map((c) => escapeLatex(COLUMN[c].head)),
		...(costs ? ['Tokens/run', `Cost/run (${escapeLatex(currencyOf(currency))})`] : [])
	];
	const body = rows.map((row) => {
		const cells = LEADERBOARD_COLUMNS.map((c) => {
			const cell = row.cells[c];
			const text = meanSd(cell, '$\\pm$');
			const marked = cell.best ? `\\textbf{${text}}` : text;
			return cell.tied_with_best ? `${marked}$^\\dagger$` : marked;
		});
		const extra = costs
			? [
					tokensText(row.cost?.tokens_per_run ?? null).replace(/,/g, '{,}'),
					moneyText(row.cost?.cost_per_run ?? null)
				]
			: [];
		return `${[escapeLatex(row.id), String(row.n), ...cells, ...extra].join(' & ')} \\\\`;
	});
	return [
		'% Requires \\usepackage{booktabs}.',
		'\\begin{table}[t]',
		'\\centering',
		`\\begin{tabular}{l${'r'.repeat(heads.length - 1)}}`,
		'\\toprule',
		`${heads.join(' & ')} \\\\`,
		'\\midrule',
		...body,
		'\\bottomrule',
		'\\end{tabular}',
		`\\caption{${latexText(tableLegend(rows, options.untested))}}`,
		'\\end{table}',
		''
	]
		.join('\n')
		.replace(/—/g, '--');
}

/** The legend in LaTeX: its symbols typeset, every other character escaped. */
const latexText = (text: string) =>
	text
		.split(/([±†α–’])/)
		.map((part) =>
			part === '±'
				? '$\\pm$'
				: part === '†'
					? '$^\\dagger$'
					: part === 'α'
						? '$\\alpha$'
						: part === '–'
							? '--'
							: part === '’'
								? "'"
								: escapeLatex(part)
		)
		.join('');

/** The table in GitHub Markdown, bold and † as in LaTeX, the legend below. */
export function leaderboardMarkdown(
	rows: readonly PaperRow[],
	options: ExportOptions = {}
): string {
	const { currency } = options;
	const costs = hasCosts(rows);
	const heads = [
		'Model',
		'n',
		...LEADERBOARD_COLUMNS.map((c) => COLUMN[c].head),
		...(costs ? ['Tokens/run', `Cost/run (${currencyOf(currency)})`] : [])
	].map(escapeMarkdown);
	const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
	const body = rows.map((row) =>
		line([
			escapeMarkdown(row.id),
			String(row.n),
			...LEADERBOARD_COLUMNS.map((c) => {
				const cell = row.cells[c];
				const text = meanSd(cell);
				return `${cell.best ? `**${text}**` : text}${cell.tied_with_best ? ' †' : ''}`;
			}),
			...(costs
				? [tokensText(row.cost?.tokens_per_run ?? null), moneyText(row.cost?.cost_per_run ?? null)]
				: [])
		])
	);
	return [
		line(heads),
		line(heads.map((_, i) => (i === 0 ? '---' : '---:'))),
		...body,
		'',
		tableLegend(rows, options.untested),
		''
	].join('\n');
}

/** Every figure of the table, one row per model, through the one CSV writer. */
export function leaderboardCsv(rows: readonly PaperRow[]): string {
	const heads = [
		'model',
		'n',
		'differs',
		...LEADERBOARD_COLUMNS.flatMap((c) =>
			[
				'mean',
				'sd',
				'n_defined',
				'ci_low',
				'ci_high',
				'ci_method',
				'rank',
				'rank_low',
				'rank_high',
				'best',
				'tied_with_best'
			].map((f) => `${c}_${f}`)
		),
		'tokens_per_run',
		'cost_per_run'
	];
	const body = rows.map((row) =>
		[
			csvCell(row.id),
			csvCell(row.n, 0),
			csvCell(row.differs.join(' ')),
			...LEADERBOARD_COLUMNS.flatMap((c) => {
				const cell = row.cells[c];
				return [
					csvCell(cell.mean),
					csvCell(cell.sd),
					csvCell(cell.n_defined, 0),
					csvCell(cell.ci95?.[0]),
					csvCell(cell.ci95?.[1]),
					csvCell(cell.ci_method),
					csvCell(cell.rank, 0),
					csvCell(cell.rank_ci95?.[0], 0),
					csvCell(cell.rank_ci95?.[1], 0),
					csvCell(cell.best ? 1 : 0, 0),
					csvCell(cell.tied_with_best === null ? null : cell.tied_with_best ? 1 : 0, 0)
				];
			}),
			csvCell(row.cost?.tokens_per_run ?? null, 0),
			csvCell(row.cost?.cost_per_run ?? null, 6)
		].join(',')
	);
	return `${[heads.join(','), ...body].join('\n')}\n`;
}

/** The table in `format`. */
export function exportLeaderboard(
	format: ExportFormat,
	rows: readonly PaperRow[],
	options: ExportOptions = {}
): string {
	if (format === 'latex') return leaderboardLatex(rows, options);
	if (format === 'markdown') return leaderboardMarkdown(rows, options);
	return leaderboardCsv(rows);
}

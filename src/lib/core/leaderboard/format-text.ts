/**
 * `results --leaderboard` as text: per board, the paper's table (mean ± SD, bold as `*`, ties
 * with the best as `†`), then each column's rank with its 95% interval and the mean's interval,
 * the pairs the tests could not separate (or why no test ran), and tokens and cost per model. Strings are escaped by
 * the caller (`escapeStrings`).
 */
import { renderTable, type Align } from '../results/text-table';
import { english } from '../voice';
import { formatInterval } from '../report/format';
import { meanSd, moneyText, rankText, tokensText } from './cells';
import { COLUMN, LEADERBOARD_COLUMNS } from '../protocol/metrics';
import type { RowCost } from './costs';
import { INTERVALS, tableLegend } from './exports';
import type { Board, Leaderboard, LeaderboardScope } from './leaderboard';
import { paperTable } from './paper-table';
import type { SortKey } from './sort';

export interface TextOptions {
	sort: SortKey;
	/** Per board, the cost of each row by id (`leaderboardCosts`); null: none shown. */
	costs: Record<string, RowCost>[] | null;
	currency?: string;
	/** The class to show instead of all cases; null: all cases. */
	cls: string | null;
}

const right = (n: number): Align[] => ['left', ...new Array<Align>(n).fill('right')];

function scopeText(
	scope: LeaderboardScope,
	options: TextOptions,
	costs: Record<string, RowCost> | null
): string[] {
	const rows = paperTable(scope, options.sort, costs);
	const heads = LEADERBOARD_COLUMNS.map((c) => COLUMN[c].head);
	const main = renderTable(
		['Model', 'n', ...heads],
		rows.map((r) => [
			r.id + (r.differs.length ? ` (differs: ${r.differs.join(', ')})` : ''),
			String(r.n),
			...LEADERBOARD_COLUMNS.map((c) => {
				const cell = r.cells[c];
				return `${cell.best ? '*' : ''}${meanSd(cell)}${cell.tied_with_best ? ' †' : ''}`;
			})
		]),
		right(heads.length + 1)
	);
	const ranks = renderTable(
		['Rank [95%]', ...heads],
		rows.map((r) => [r.id, ...LEADERBOARD_COLUMNS.map((c) => rankText(r.cells[c]))]),
		right(heads.length)
	);
	const intervals = renderTable(
		['95% CI of the mean', ...heads],
		rows.map((r) => [
			r.id,
			...LEADERBOARD_COLUMNS.map(
				(c) => formatInterval(r.cells[c].ci95) + (r.cells[c].ci_method === 'wilson' ? ' W' : '')
			)
		]),
		right(heads.length)
	);
	const listed = (tied: boolean | null) =>
		LEADERBOARD_COLUMNS.flatMap((c) => {
			const pairs = scope.pairs.filter((p) => p.column === c && p.tied === tied);
			return pairs.length
				? [`  ${COLUMN[c].head}: ${pairs.map((p) => `${p.a} = ${p.b}`).join('; ')}`]
				: [];
		});
	const tied = listed(true);
	const untested = scope.untested ? [] : listed(null);
	const ties = scope.untested
		? `Statistically tied: ${english(scope.untested)}.`
		: tied.length
			? `Statistically tied (Holm-adjusted p ≥ 0.05):\n${tied.join('\n')}`
			: 'No pair is tied.';
	const out = [
		main,
		tableLegend(rows, scope.untested, '*'),
		'',
		ranks,
		'',
		intervals,
		INTERVALS,
		'',
		ties,
		...(untested.length
			? [`Not tested (a value undefined in most resamples):\n${untested.join('\n')}`]
			: [])
	];
	if (costs && rows.some((r) => r.cost?.runs_with_log)) {
		const currency = options.currency ?? 'USD';
		out.push(
			'',
			renderTable(
				[
					'Model',
					'Calls',
					'Tokens/run',
					'Prompt',
					'Completion',
					`Cost/run (${currency})`,
					`Cost (${currency})`,
					'No price for'
				],
				rows.map((r) => [
					r.id,
					String(r.cost?.calls ?? 0),
					tokensText(r.cost?.tokens_per_run ?? null),
					tokensText(r.cost?.tokens.prompt ?? null),
					tokensText(r.cost?.tokens.completion ?? null),
					moneyText(r.cost?.cost_per_run ?? null),
					moneyText(r.cost?.cost ?? null),
					r.cost?.missing_prices.join(', ') ?? ''
				]),
				['left', 'right', 'right', 'right', 'right', 'right', 'right', 'left']
			)
		);
	}
	return out;
}

function boardText(board: Board, i: number, options: TextOptions): string {
	const scope = options.cls === null ? board.overall : board.by_class[options.cls];
	const where =
		options.cls === null
			? `${board.n_cases} cases`
			: `class ${options.cls}, ${scope?.n_cases ?? 0} cases`;
	const title = `Leaderboard ${i + 1}: dataset ${board.dataset_sha256.slice(0, 12)}…, ${where}`;
	const lines = [title, '='.repeat(Math.min(title.length, 100))];
	if (!scope) lines.push('(no case of this class)');
	else lines.push(...scopeText(scope, options, options.costs?.[i] ?? null));
	for (const note of board.notes) lines.push(`note: ${english(note)}`);
	return lines.join('\n');
}

export function formatLeaderboard(lb: Leaderboard, options: TextOptions): string {
	const b = lb.bootstrap;
	const head = `Case bootstrap: ${b.resamples} resamples, seed ${b.seed}; the same resampled cases for every model.`;
	const notes = lb.notes.map((n) => `note: ${english(n)}`);
	return `${[head, ...notes, '', lb.boards.map((board, i) => boardText(board, i, options)).join('\n\n')].join('\n')}\n`;
}

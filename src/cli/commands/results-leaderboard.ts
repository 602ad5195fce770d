/**
 * `results --leaderboard`: every model side by side (metrics/README.md, "Leaderboard"), as text,
 * JSON or one of the paper's table formats, with tokens and cost per model from the call logs
 * and, given `--prices FILE`, money.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { UsageError } from '../../lib/core/errors';
import { LEADERBOARD_COLUMNS } from '../../lib/core/protocol/metrics';
import { leaderboardCosts } from '../../lib/core/leaderboard/costs';
import {
	EXPORT_FORMATS,
	exportLeaderboard,
	type ExportFormat
} from '../../lib/core/leaderboard/exports';
import { formatLeaderboard } from '../../lib/core/leaderboard/format-text';
import {
	computeLeaderboard,
	type Leaderboard,
	type LeaderboardScope
} from '../../lib/core/leaderboard/leaderboard';
import { paperTable } from '../../lib/core/leaderboard/paper-table';
import { parsePrices, type Prices } from '../../lib/core/leaderboard/prices';
import { EXTRA_SORT_KEYS, sortKey, type SortKey } from '../../lib/core/leaderboard/sort';
import type { BootstrapOptions } from '../../lib/core/metrics/bootstrap';
import type { LoadedRun } from '../../lib/core/results/compare';
import { computeReport } from '../../lib/core/results/report';
import type { LayoutSource } from '../../lib/core/results/source';
import { coded } from '../../lib/core/said';
import { escapeControl, escapeStrings } from '../../lib/core/text/escape-control';
import { english } from '../../lib/core/voice';
import type { CliIo } from '../types';

export interface LeaderboardFlags {
	runId?: string;
	model?: string;
	partial: boolean;
	json: boolean;
	sort?: string;
	cls?: string;
	prices?: string;
	format?: string;
	bootstrap: Required<BootstrapOptions>;
}

async function readPrices(path: string | undefined, cwd: string): Promise<Prices | null> {
	if (path === undefined) return null;
	const full = resolve(cwd, path);
	let text: string;
	try {
		text = await readFile(full, 'utf8');
	} catch (e) {
		const detail = (e as NodeJS.ErrnoException).code ?? (e as Error).message;
		throw new UsageError([
			coded('lb_prices_invalid', { place: full, detail: `cannot read (${detail})` })
		]);
	}
	return parsePrices(text, full);
}

function checkedSort(text: string | undefined): SortKey {
	if (text === undefined) return 'lca_macro_f1';
	const key = sortKey(text);
	if (key) return key;
	const allowed = [...LEADERBOARD_COLUMNS, ...EXTRA_SORT_KEYS].join(', ');
	throw new UsageError([coded('lb_unknown_column', { column: text, allowed })]);
}

function checkedFormat(text: string | undefined): ExportFormat | null {
	if (text === undefined) return null;
	if ((EXPORT_FORMATS as readonly string[]).includes(text)) return text as ExportFormat;
	throw new UsageError(
		`--format ${escapeControl(JSON.stringify(text))}: expected one of ${EXPORT_FORMATS.join(', ')}.`
	);
}

function checkedClass(lb: Leaderboard, cls: string | undefined): string | null {
	if (cls === undefined) return null;
	const all = [...new Set(lb.boards.flatMap((b) => Object.keys(b.by_class)))];
	if (all.includes(cls)) return cls;
	throw new UsageError([coded('lb_unknown_class', { cls, allowed: all.join(', ') || '(none)' })]);
}

/** A scope with its reason for untested pairs in English. */
const scopeJson = (scope: LeaderboardScope) => ({
	...scope,
	untested: scope.untested && english(scope.untested)
});

/** The leaderboard JSON: notes in English, each overall row with its tokens and cost. */
function leaderboardJson(
	lb: Leaderboard,
	costs: ReturnType<typeof leaderboardCosts>,
	prices: Prices | null
) {
	return {
		...lb,
		notes: lb.notes.map((n) => english(n)),
		prices: prices && { currency: prices.currency ?? 'USD', per: 'million tokens' },
		boards: lb.boards.map((board, i) => ({
			...board,
			notes: board.notes.map((n) => english(n)),
			by_class: Object.fromEntries(
				Object.entries(board.by_class).map(([cls, scope]) => [cls, scopeJson(scope)])
			),
			overall: {
				...scopeJson(board.overall),
				rows: board.overall.rows.map((row) => ({ ...row, cost: costs[i][row.id] ?? null }))
			}
		}))
	};
}

/** Runs `results --leaderboard`; the exit code. */
export async function runLeaderboard(
	source: LayoutSource,
	root: string,
	flags: LeaderboardFlags,
	io: CliIo
): Promise<number> {
	const sort = checkedSort(flags.sort);
	const format = checkedFormat(flags.format);
	const prices = await readPrices(flags.prices, io.cwd);
	const runs: LoadedRun[] = [];
	await computeReport(source, {
		runId: flags.runId,
		model: flags.model,
		partial: flags.partial,
		onRun: (run, manifest, table) => runs.push({ run, manifest, table })
	});
	if (!runs.some((r) => !r.run.empty)) {
		io.stderr(`error: no runs with records under ${escapeControl(root)}; nothing to rank.\n`);
		return 2;
	}
	const lb = computeLeaderboard(runs, { bootstrap: flags.bootstrap });
	const cls = checkedClass(lb, flags.cls);
	const costs = leaderboardCosts(runs, prices);
	if (flags.json) {
		io.stdout(`${JSON.stringify(leaderboardJson(lb, costs, prices), null, 2)}\n`);
		return 0;
	}
	if (format) {
		if (format === 'csv' && lb.boards.length > 1) {
			throw new UsageError(
				`--format csv: these runs make ${lb.boards.length} leaderboards (${lb.notes.map((n) => english(n)).join('; ')}); narrow them with --run-id or --model, or use --json.`
			);
		}
		const tables = lb.boards.flatMap((board, i) => {
			const scope = cls === null ? board.overall : board.by_class[cls];
			return scope
				? [
						exportLeaderboard(format, paperTable(scope, sort, costs[i]), {
							currency: prices?.currency,
							untested: scope.untested
						})
					]
				: [];
		});
		io.stdout(tables.join('\n'));
		return 0;
	}
	io.stdout(
		formatLeaderboard(escapeStrings(lb), {
			sort,
			cls: cls === null ? null : escapeControl(cls),
			costs: escapeStrings(costs),
			currency: prices?.currency && escapeControl(prices.currency)
		})
	);
	return 0;
}

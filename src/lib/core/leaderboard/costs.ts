/**
 * What a leaderboard row cost (README.md, "Costs"): tokens per role and stage from its runs'
 * call logs, and money when prices are known. Each role's tokens are priced at the model that
 * played it (`manifest.models[role]`), so a shared judge is billed at the judge's price.
 */
import { costOf, type TokenCount } from '../calls/cost';
import type { CallGroupTotals } from '../calls/totals';
import { perRole, ROLES, type Role } from '../record-names';
import type { LoadedRun } from '../results/compare';
import { splitBoards } from './boards';
import type { Prices } from './prices';

// The one price arithmetic (core/calls/cost.ts, which the Run page's plan costs use too).
export { costOf, type TokenCount };

export interface RowCost {
	/** Runs of the row that have a call log (the others add no tokens). */
	runs_with_log: number;
	calls: number;
	/** Calls whose provider reported no usage: their tokens, and so their cost, are missing. */
	no_usage: number;
	/** Summed over the row's runs. */
	tokens: TokenCount;
	by_role: Record<Role, TokenCount>;
	/** Per stage, per role that made calls there. */
	by_stage: Record<string, Partial<Record<Role, TokenCount>>>;
	/** Prompt + completion tokens per run with a log; null with no log. */
	tokens_per_run: number | null;
	/** Summed over the row's runs; null when a model used has no price or no run has a log. */
	cost: number | null;
	cost_per_run: number | null;
	/** Model ids that made calls but have no price. */
	missing_prices: string[];
}

const zero = (): TokenCount => ({ prompt: 0, completion: 0 });
function add(into: TokenCount, group: CallGroupTotals): void {
	into.prompt += group.tokens.prompt;
	into.completion += group.tokens.completion;
}

/** Tokens and cost of `runs` (one leaderboard row) at `prices` (null: tokens only). */
export function rowCost(runs: readonly LoadedRun[], prices: Prices | null): RowCost {
	const byRole = perRole(zero);
	const byStage: RowCost['by_stage'] = {};
	const missing = new Set<string>();
	let cost = 0;
	let withLog = 0;
	let calls = 0;
	let noUsage = 0;
	for (const { run, manifest } of runs) {
		if (!run.calls) continue;
		withLog++;
		calls += run.calls.calls;
		noUsage += run.calls.no_usage;
		for (const role of ROLES) {
			const group = run.calls.by_role[role];
			add(byRole[role], group);
			if (group.calls === 0) continue;
			const model = manifest.models[role];
			const price = prices && Object.hasOwn(prices.models, model) ? prices.models[model] : null;
			if (price)
				cost += costOf({ prompt: group.tokens.prompt, completion: group.tokens.completion }, price);
			else missing.add(model);
		}
		for (const [stage, roles] of Object.entries(run.calls.by_stage)) {
			const into = (byStage[stage] ??= {});
			for (const role of ROLES) {
				const group = roles[role];
				if (group) add((into[role] ??= zero()), group);
			}
		}
	}
	const tokens = ROLES.reduce(
		(t, r) => ({
			prompt: t.prompt + byRole[r].prompt,
			completion: t.completion + byRole[r].completion
		}),
		zero()
	);
	const priced = prices !== null && withLog > 0 && missing.size === 0;
	return {
		runs_with_log: withLog,
		calls,
		no_usage: noUsage,
		tokens,
		by_role: byRole,
		by_stage: byStage,
		tokens_per_run: withLog > 0 ? (tokens.prompt + tokens.completion) / withLog : null,
		cost: priced ? cost : null,
		cost_per_run: priced ? cost / withLog : null,
		missing_prices: prices === null ? [] : [...missing].sort()
	};
}

/**
 * The same as `leaderboardCosts(runs, prices)` for the boards `computeLeaderboard(runs)` made,
 * each row's runs found by model and run id: no second split of the runs (the page's worker
 * split them already). A run of a row that is not in `runs` adds nothing.
 */
export function costsOfBoards(
	boards: readonly {
		overall: { rows: readonly { id: string; model: string; run_ids: string[] }[] };
	}[],
	runs: readonly LoadedRun[],
	prices: Prices | null
): Record<string, RowCost>[] {
	const byKey = new Map(runs.map((l) => [`${l.manifest.models.evaluated}\n${l.run.run_id}`, l]));
	// Two runs of one model and run id (in two model folders): only the split tells them apart.
	if (byKey.size !== runs.length) return leaderboardCosts(runs, prices);
	return boards.map((board) =>
		Object.fromEntries(
			board.overall.rows.map((row) => [
				row.id,
				rowCost(
					row.run_ids.flatMap((id) => byKey.get(`${row.model}\n${id}`) ?? []),
					prices
				)
			])
		)
	);
}

/** Per board of `computeLeaderboard(runs)`, each row's cost by row id (the same split). */
export function leaderboardCosts(
	runs: readonly LoadedRun[],
	prices: Prices | null
): Record<string, RowCost>[] {
	return splitBoards(runs).map((rows) =>
		Object.fromEntries(rows.map((row) => [row.id, rowCost(row.runs, prices)]))
	);
}

/**
 * Which runs share a leaderboard and which share a row (README.md, "Leaderboard"). Models can be
 * ranked against each other only on the same cases, so a board holds the runs of one dataset
 * and one case selection; within it a row is a group of comparable runs (`groupComparable`), so
 * one model run with other settings or prompts gets a row per settings group, each saying
 * which comparability fields set it apart.
 */
import { canonicalJson } from '../hash';
import { comparabilityFields, groupComparable } from '../metrics/groups';
import type { LoadedRun } from '../results/compare';

const collator = new Intl.Collator('en', { numeric: true });

/** The fields that decide which board a run belongs to. */
export const BOARD_FIELDS = ['dataset.sha256', 'dataset.selected_case_numbers'] as const;

export interface BoardRow {
	/** Unique within the board: the model id, with ` #k` for its k-th settings group (k ≥ 2). */
	id: string;
	model: string;
	runs: LoadedRun[];
	/**
	 * Comparability fields (manifest paths) in which this row differs from the board's first
	 * row, the evaluated model aside; empty when only the model differs.
	 */
	differs: string[];
}

/** Runs split into boards (one case set each), and each board into rows, in first-seen order. */
export function splitBoards(runs: readonly LoadedRun[]): BoardRow[][] {
	const boards = new Map<string, LoadedRun[]>();
	for (const run of runs) {
		if (run.run.empty) continue;
		const fields = comparabilityFields(run.manifest);
		const key = canonicalJson(BOARD_FIELDS.map((f) => fields[f]));
		const board = boards.get(key);
		if (board) board.push(run);
		else boards.set(key, [run]);
	}
	return [...boards.values()].map((board) => {
		// Models in id order, each model's settings groups in the order of their first run id.
		const groups = groupComparable(board).sort(
			(a, b) =>
				collator.compare(a[0].manifest.models.evaluated, b[0].manifest.models.evaluated) ||
				collator.compare(a[0].run.run_id, b[0].run.run_id)
		);
		const first = comparabilityFields(groups[0][0].manifest);
		const seen = new Map<string, number>();
		return groups.map((group) => {
			const model = group[0].manifest.models.evaluated;
			const k = (seen.get(model) ?? 0) + 1;
			seen.set(model, k);
			const fields = comparabilityFields(group[0].manifest);
			return {
				id: k === 1 ? model : `${model} #${k}`,
				model,
				runs: group,
				differs: Object.keys(fields).filter(
					(f) => f !== 'models.evaluated' && canonicalJson(fields[f]) !== canonicalJson(first[f])
				)
			};
		});
	});
}

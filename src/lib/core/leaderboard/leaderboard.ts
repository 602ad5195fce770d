/**
 * The leaderboard (README.md, "Leaderboard"): per board (one dataset and case selection), one
 * row per model and settings group, each column the mean ± SD over its runs with a case
 * bootstrap interval, ranks with their intervals, and Holm-corrected paired tests; the same
 * per cause class. Plain data in and out, so it runs in the Results page's worker as in the CLI.
 */
import { coded, type CoreText } from '../said';
import { bootstrapSettings, CI_LEVEL, type BootstrapOptions } from '../metrics/bootstrap';
import { orderClasses } from '../metrics/by-class';

import { Prng, scopeSeed } from '../metrics/prng';
import type { LoadedRun } from '../results/compare';
import type { BootstrapDescription } from '../results/report';
import { BOARD_FIELDS, splitBoards, type BoardRow } from './boards';
import { canonicalJson } from '../hash';
import { comparabilityFields } from '../metrics/groups';
import type { ColumnKey } from '../protocol/metrics';
import { resampleScope, type ModelRuns } from './scope';
import { summariseScope, TIE_ALPHA, type LeaderboardCell, type PairTest } from './scope';

export interface LeaderboardRow {
	id: string;
	model: string;
	run_ids: string[];
	/** Runs in the row (repetitions). */
	n: number;
	/** True when some run scored an incomplete stage. */
	partial: boolean;
	differs: string[];
	cells: Record<ColumnKey, LeaderboardCell>;
}

/** The leaderboard of one scope: the board's cases, or one class's. */
export interface LeaderboardScope {
	n_cases: number;
	/** Why no pair was tested (too few cases, intervals not computed); null when tests ran. */
	untested: CoreText | null;
	rows: LeaderboardRow[];
	pairs: PairTest[];
}

export interface Board {
	dataset_sha256: string;
	/** Selected cases shared by every run of the board. */
	n_cases: number;
	overall: LeaderboardScope;
	/** Per class (classes in report order); empty when runs put a case in different classes. */
	by_class: Record<string, LeaderboardScope>;
	notes: CoreText[];
}

export interface Leaderboard {
	boards: Board[];
	/** Why the runs make more than one board, naming the fields that differ. */
	notes: CoreText[];
	bootstrap: BootstrapDescription;
	/** How ties are decided, for the reader of the JSON. */
	ties: { test: 'paired case bootstrap, two-sided'; correction: 'holm'; alpha: number };
}

export interface LeaderboardOptions {
	bootstrap?: BootstrapOptions;
	/** Whether to rank per class at all. @default true */
	classes?: boolean;
	/**
	 * Classes whose leaderboard gets intervals, rank intervals and tie tests; the others get
	 * means, SDs and ranks only (the cheap part, enough for the models × classes matrix).
	 * @default 'all'
	 */
	classIntervals?: 'all' | readonly string[];
}

/** Per case of the board, its class name; null when two runs put a case in different classes. */
function boardClasses(runs: readonly LoadedRun[], n: number): (string | null)[] | null {
	const names: (string | null)[] = new Array(n).fill(null);
	for (const { table } of runs) {
		for (let i = 0; i < n; i++) {
			const c = table.class_of[i];
			if (c < 0) continue;
			const name = table.classes[c];
			if (names[i] !== null && names[i] !== name) return null;
			names[i] = name;
		}
	}
	return names;
}

function scope(
	rows: readonly BoardRow[],
	models: readonly ModelRuns[],
	cases: Int32Array,
	name: string,
	settings: { resamples: number; seed: number }
): LeaderboardScope {
	const rng = new Prng(scopeSeed(settings.seed, name));
	const samples = resampleScope(models, cases, rng, settings.resamples);
	const ids = rows.map((r) => r.id);
	const result = summariseScope(ids, samples, cases.length, settings.resamples);
	return {
		n_cases: cases.length,
		untested: result.untested,
		rows: rows.map((r, k) => ({
			id: r.id,
			model: r.model,
			run_ids: r.runs.map((l) => l.run.run_id),
			n: r.runs.length,
			partial: r.runs.some((l) => l.run.partial),
			differs: r.differs,
			cells: result.cells[k]
		})),
		pairs: result.pairs
	};
}

function board(
	rows: BoardRow[],
	options: LeaderboardOptions,
	settings: { resamples: number; seed: number }
): Board {
	const all = rows.flatMap((r) => r.runs);
	const first = all[0];
	const n = first.table.case_numbers.length;
	const models = rows.map((r) => {
		const counts = r.runs.map((l) => l.table.counts);
		return { counts };
	});
	const notes: CoreText[] = [];
	const by_class: Record<string, LeaderboardScope> = {};
	const wanted = options.classIntervals ?? 'all';
	const names = options.classes === false ? [] : boardClasses(all, n);
	if (names === null) notes.push(coded('lb_note_classes', {}));
	else {
		const present = orderClasses(
			names.filter((c): c is string => c !== null),
			first.manifest.categories
		);
		for (const cls of present) {
			const cases = Int32Array.from(names.flatMap((c, i) => (c === cls ? [i] : [])));
			const resamples = wanted === 'all' || wanted.includes(cls) ? settings.resamples : 0;
			by_class[cls] = scope(rows, models, cases, cls, { ...settings, resamples });
		}
	}
	return {
		dataset_sha256: first.manifest.dataset.sha256,
		n_cases: n,
		overall: scope(
			rows,
			models,
			Int32Array.from({ length: n }, (_, i) => i),
			'',
			settings
		),
		by_class,
		notes
	};
}

/** The leaderboard of `runs` (runs without records are left out: they are no repetition). */
export function computeLeaderboard(
	runs: readonly LoadedRun[],
	options: LeaderboardOptions = {}
): Leaderboard {
	const settings = bootstrapSettings(options.bootstrap);
	const split = splitBoards(runs);
	const boards = split.map((rows) => board(rows, options, settings));
	const fields = BOARD_FIELDS.filter(
		(f) =>
			new Set(split.map((rows) => canonicalJson(comparabilityFields(rows[0].runs[0].manifest)[f])))
				.size > 1
	);
	return {
		boards,
		notes:
			boards.length > 1
				? [coded('lb_note_boards', { count: boards.length, fields: fields.join(', ') })]
				: [],
		bootstrap: { unit: 'case', method: 'percentile', level: CI_LEVEL, ...settings },
		ties: { test: 'paired case bootstrap, two-sided', correction: 'holm', alpha: TIE_ALPHA }
	};
}

/**
 * One scope of a board (all its cases, or one class's): its resamples (every model of the board
 * at once on the one engine, `Resampler`), then per model and column the mean ± SD of its runs,
 * the case-bootstrap interval of that mean, the rank and its interval, and the paired tests that
 * say which models are statistically tied (README.md, "Leaderboard").
 */
import { CELL, LJP_OFFSET, ROW_WIDTH } from '../metrics/case-table';
import { mean, sampleSd } from '../metrics/moments';
import {
	caseInterval,
	definedSorted,
	MIN_CASES,
	Resampler,
	type Interval,
	type IntervalMethod
} from '../metrics/bootstrap';
import { shareCases, SLOTS } from '../metrics/kernel';
import { bootstrapP } from '../metrics/paired';
import type { Prng } from '../metrics/prng';
import { coded, type CoreText } from '../said';
import { COLUMNS, LEADERBOARD_COLUMNS, type ColumnKey } from '../protocol/metrics';
import { holm } from './holm';
import { rankIntervals, ranksOf } from './ranks';

/** Columns per model in every array below. */
export const C = COLUMNS.length;
const SLOT_OF = Int32Array.from(COLUMNS, (c) => c.slot);
const S = SLOTS;

/** One model's runs: each run's case counts, in the board's case order. */
export interface ModelRuns {
	counts: Int32Array[];
}

export interface ScopeSamples {
	/** Per model, `runs × C` values of each run on all the scope's cases (NaN: undefined). */
	observed: Float64Array[];
	/**
	 * `resamples × models × C`: at `(b · models + m) · C + c`, the mean over model m's runs of
	 * column c on resample b, over the runs where it is defined (NaN when none is).
	 */
	samples: Float64Array;
	/**
	 * `models × C`: the cases holding column c's share in every run of model m (the fewest over
	 * its runs: they share their cases, so more runs add no case), Wilson's n; -1 for F1 and QWK.
	 */
	shareCases: Int32Array;
}

/**
 * The counts the columns' rates read (LCA's four cells, DCG's records and successes, the LJP
 * matrices): the others (DCG's per-round successes) are left out of the resamples, whose other
 * rates no column shows. About a sixth fewer additions per drawn case.
 */
const READ = new Uint8Array(ROW_WIDTH);
READ.fill(1, CELL.LCA_TP, CELL.DCG_SUCCESS + 1);
for (const o of Object.values(LJP_OFFSET)) READ.fill(1, o, o + 9);

/**
 * Observed values and resampled model means of one scope (`cases`: row indices of the board).
 * Each resample draws one multiset of cases, the same for every model (and the same draw as
 * `bootstrapRun`'s, so a model of one run gets that run's interval); each run's rates are
 * computed on it, and each model's value is the mean over its runs.
 */
export function resampleScope(
	models: readonly ModelRuns[],
	cases: Int32Array,
	rng: Prng,
	resamples: number
): ScopeSamples {
	const M = models.length;
	const firstRun = Int32Array.from(models, (_, k) =>
		models.slice(0, k).reduce((t, m) => t + m.counts.length, 0)
	);
	const all = new Resampler(
		models.flatMap((m) => m.counts),
		READ
	);
	const rates = all.observed(cases);
	const observed = models.map((model, k) => {
		const out = new Float64Array(model.counts.length * C);
		for (let r = 0; r < model.counts.length; r++) {
			for (let c = 0; c < C; c++) out[r * C + c] = rates[(firstRun[k] + r) * S + SLOT_OF[c]];
		}
		return out;
	});
	const samples = new Float64Array(resamples * M * C);
	const sum = new Float64Array(C);
	const defined = new Int32Array(C);
	all.resample(cases, rng, resamples, (b, rates) => {
		for (let k = 0; k < M; k++) {
			sum.fill(0);
			defined.fill(0);
			for (let r = firstRun[k], end = r + models[k].counts.length; r < end; r++) {
				for (let c = 0; c < C; c++) {
					const v = rates[r * S + SLOT_OF[c]];
					if (v === v) {
						sum[c] += v;
						defined[c]++;
					}
				}
			}
			const o = (b * M + k) * C;
			for (let c = 0; c < C; c++) samples[o + c] = defined[c] > 0 ? sum[c] / defined[c] : NaN;
		}
	});
	const heldBy = new Int32Array(M * C);
	models.forEach((model, k) => {
		for (let c = 0; c < C; c++) {
			const each = model.counts.map((counts) => shareCases(counts, cases, SLOT_OF[c]));
			heldBy[k * C + c] = each.length ? Math.min(...each) : -1;
		}
	});
	return { observed, samples, shareCases: heldBy };
}

/** Family-wise error rate of the tie tests (Holm-corrected within each column). */
export const TIE_ALPHA = 0.05;

/** One model × column. */
export interface LeaderboardCell {
	/** Mean over the runs where the value is defined; null when none is. */
	mean: number | null;
	/** Sample SD (ddof = 1) over the same runs; null for fewer than two. */
	sd: number | null;
	/** Runs the mean and SD are over. */
	n_defined: number;
	/**
	 * 95% case-bootstrap interval of the mean (cases resampled, then runs averaged); where that
	 * collapses to a point, Wilson's score interval for a share, none for F1 and QWK.
	 */
	ci95: Interval;
	/** Which interval `ci95` is; null when there is none. */
	ci_method: IntervalMethod | null;
	/** 1 = best; models with equal means share a rank. */
	rank: number | null;
	/** 95% bootstrap interval of the rank (the same resampled cases for every model). */
	rank_ci95: [number, number] | null;
	/** Row ids this model is not significantly different from (Holm-adjusted p ≥ 0.05). */
	tied_with: string[];
	/** Row ids it was not tested against (no test: neither tied nor different). */
	untested_with: string[];
}

/** The paired test of two models in one column: B − A of their means over the same cases. */
export interface PairTest {
	column: ColumnKey;
	a: string;
	b: string;
	diff: number;
	/** Two-sided paired case-bootstrap p-value (as `results --compare`); null when untested. */
	p: number | null;
	/** Holm-adjusted over the column's pairs. */
	p_holm: number | null;
	/** Whether p_holm ≥ 0.05; null when no test was run (no tie is claimed without a test). */
	tied: boolean | null;
}

export interface ScopeResult {
	n_cases: number;
	/** Why no pair of the scope was tested; null when the tests ran. */
	untested: CoreText | null;
	cells: Record<ColumnKey, LeaderboardCell>[];
	pairs: PairTest[];
}

function valuesOf(observed: Float64Array, c: number): number[] {
	const out: number[] = [];
	for (let o = c; o < observed.length; o += C)
		if (!Number.isNaN(observed[o])) out.push(observed[o]);
	return out;
}

/** The models `id` is paired with in `tests` whose outcome is `tied`. */
const partners = (tests: readonly PairTest[], id: string, tied: boolean | null): string[] =>
	tests
		.filter((t) => t.tied === tied && (t.a === id || t.b === id))
		.map((t) => (t.a === id ? t.b : t.a));

/** Summarises `scope` for models named `ids` (row ids, in board order). */
export function summariseScope(
	ids: readonly string[],
	scope: ScopeSamples,
	nCases: number,
	resamples: number
): ScopeResult {
	const M = ids.length;
	const { observed, samples } = scope;
	const enough = nCases >= MIN_CASES && resamples > 0;
	const cells = ids.map(() => ({}) as Record<ColumnKey, LeaderboardCell>);
	const pairs: PairTest[] = [];
	LEADERBOARD_COLUMNS.forEach((column, c) => {
		const means = observed.map((o) => mean(valuesOf(o, c)) ?? NaN);
		const ranks = ranksOf(means);
		const rankCi = enough ? rankIntervals(samples, resamples, M, C, c) : ids.map(() => null);
		const columnPairs: Omit<PairTest, 'p_holm' | 'tied'>[] = [];
		const diffs = new Float64Array(resamples);
		for (let a = 0; a < M; a++) {
			for (let b = a + 1; b < M; b++) {
				if (Number.isNaN(means[a]) || Number.isNaN(means[b])) continue;
				for (let r = 0; r < resamples; r++) {
					diffs[r] = samples[(r * M + b) * C + c] - samples[(r * M + a) * C + c];
				}
				const diff = means[b] - means[a];
				const sorted = enough ? definedSorted(diffs, 0, resamples, 1) : null;
				const p = sorted === null ? null : bootstrapP(diff, sorted);
				columnPairs.push({ column, a: ids[a], b: ids[b], diff, p });
			}
		}
		const adjusted = holm(columnPairs.map((t) => t.p));
		const tested = columnPairs.map((t, i) => ({
			...t,
			p_holm: adjusted[i],
			tied: adjusted[i] === null ? null : adjusted[i] >= TIE_ALPHA
		}));
		pairs.push(...tested);
		ids.forEach((id, k) => {
			const values = valuesOf(observed[k], c);
			const sorted =
				enough && values.length > 0 ? definedSorted(samples, k * C + c, resamples, M * C) : null;
			const interval =
				sorted === null
					? { ci: null, method: null }
					: caseInterval(sorted, means[k], scope.shareCases[k * C + c]);
			cells[k][column] = {
				mean: mean(values),
				sd: sampleSd(values),
				n_defined: values.length,
				ci95: interval.ci,
				ci_method: interval.method,
				rank: ranks[k],
				rank_ci95: rankCi[k],
				tied_with: partners(tested, id, true),
				untested_with: partners(tested, id, null)
			};
		});
	});
	const untested =
		nCases < MIN_CASES
			? coded('lb_untested_few_cases', { cases: nCases, min: MIN_CASES })
			: resamples === 0
				? coded('lb_untested_not_computed', {})
				: null;
	return { n_cases: nCases, untested, cells, pairs };
}

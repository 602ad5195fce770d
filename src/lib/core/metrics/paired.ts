/**
 * Paired comparison of two runs on the same cases (README.md, "Uncertainty"): B − A of every
 * rate, with a paired bootstrap interval (each resample draws the same cases for both runs)
 * and a two-sided bootstrap p-value. Plain data in and out, for a Web Worker as for the CLI.
 */
import { coded, type CoreText } from '../said';
import { english } from '../voice';
import { ROW_WIDTH, type CaseTable, type ScoredStages } from './case-table';
import {
	bootstrapSettings,
	definedSorted,
	MIN_CASES,
	percentileInterval,
	Resampler,
	type BootstrapOptions,
	type Interval
} from './bootstrap';
import { rateTree, SLOTS, type RateTree } from './kernel';
import { Prng, scopeSeed } from './prng';
import { LJP_SETUPS } from './types';

// A module-local copy: some loaders turn imported bindings into getters, far too slow for the
// inner loop.
const S = SLOTS;

/**
 * Differences at most this far from zero count as zero (ties): rates of equal counts are
 * bit-identical, but the same rational reached by other counts may differ in the last bits.
 */
export const TIE_TOLERANCE = 1e-12;

/** B − A of one rate. */
export interface Difference {
	/** B − A on all the scope's cases; null when either rate is undefined. */
	diff: number | null;
	/** Percentile interval of B − A over the paired resamples. */
	ci95: Interval;
	/**
	 * Two-sided bootstrap p-value: min(1, 2 (k + t/2 + 1) / (m + 1)), k the resamples whose
	 * difference has the opposite sign to `diff`, t those at zero, m those where it is defined.
	 * 1 when `diff` is 0.
	 */
	p: number | null;
}

/** The paired comparison of two case tables. */
export interface PairedComparison {
	/** Cases in both runs (the pairing unit). */
	n_cases: number;
	metrics: RateTree<Difference>;
	by_class: Record<string, RateTree<Difference>>;
	/** Why some part is missing, e.g. per-class figures when the runs' classes differ. */
	notes: CoreText[];
}

/** Why two runs cannot be paired (their selected cases differ), or null when they can. */
export function pairingProblem(a: CaseTable, b: CaseTable): string | null {
	const said = pairingSaid(a, b);
	return said && english(said);
}

/** {@link pairingProblem} as a coded text, for the interface language. */
export function pairingSaid(a: CaseTable, b: CaseTable): CoreText | null {
	const inB = new Set(b.case_numbers);
	const inA = new Set(a.case_numbers);
	const onlyA = a.case_numbers.filter((c) => !inB.has(c));
	const onlyB = b.case_numbers.filter((c) => !inA.has(c));
	if (onlyA.length === 0 && onlyB.length === 0) return null;
	const list = (cs: string[]) =>
		cs.length === 0
			? coded('compare_cases_none', {})
			: coded('compare_cases_listed', {
					count: cs.length,
					cases: `${cs
						.slice(0, 5)
						.map((c) => JSON.stringify(c))
						.join(', ')}${cs.length > 5 ? ', …' : ''}`
				});
	const counts = { na: a.case_numbers.length, nb: b.case_numbers.length };
	return coded('compare_other_cases', counts, { onlyA: [list(onlyA)], onlyB: [list(onlyB)] });
}

function bothScored(a: ScoredStages, b: ScoredStages): ScoredStages {
	return {
		lca: a.lca && b.lca,
		dcg: a.dcg && b.dcg,
		ljp: Object.fromEntries(LJP_SETUPS.map((s) => [s, a.ljp[s] && b.ljp[s]])) as ScoredStages['ljp']
	};
}

/** B's counts reordered into A's case order, so one row index means one case in both. */
export function alignRows(a: CaseTable, b: CaseTable): Int32Array {
	const rowOfB = new Map(b.case_numbers.map((c, i) => [c, i]));
	const out = new Int32Array(a.counts.length);
	a.case_numbers.forEach((c, i) => {
		const j = rowOfB.get(c)!;
		out.set(b.counts.subarray(j * ROW_WIDTH, (j + 1) * ROW_WIDTH), i * ROW_WIDTH);
	});
	return out;
}

/** The p-value of Difference.p from the sorted defined resampled differences. */
export function bootstrapP(diff: number, sorted: Float64Array): number {
	if (Math.abs(diff) <= TIE_TOLERANCE) return 1;
	let opposite = 0;
	let ties = 0;
	for (const d of sorted) {
		if (Math.abs(d) <= TIE_TOLERANCE) ties++;
		else if (d > 0 !== diff > 0) opposite++;
	}
	return Math.min(1, (2 * (opposite + ties / 2 + 1)) / (sorted.length + 1));
}

function scopeDifferences(
	resampler: Resampler,
	rows: Int32Array,
	scored: ScoredStages,
	rng: Prng,
	resamples: number,
	samples: Float64Array
): RateTree<Difference> {
	const rates = resampler.observed(rows);
	const observed = rates.subarray(S).map((v, s) => v - rates[s]);
	// A NaN on either side makes the difference NaN: left out like an undefined rate.
	resampler.resample(rows, rng, resamples, (b, r) => {
		for (let s = 0; s < S; s++) samples[b * S + s] = r[S + s] - r[s];
	});
	const n = rows.length;
	return rateTree(scored, (slot) => {
		// Within the tie tolerance the runs agree: report exactly 0, not a rounding residue.
		const diff = Math.abs(observed[slot]) <= TIE_TOLERANCE ? 0 : observed[slot];
		if (Number.isNaN(diff)) return { diff: null, ci95: null, p: null };
		if (n < MIN_CASES) return { diff, ci95: null, p: null };
		const sorted = definedSorted(samples, slot, resamples);
		if (sorted === null) return { diff, ci95: null, p: null };
		return { diff, ci95: percentileInterval(sorted), p: bootstrapP(diff, sorted) };
	});
}

/**
 * Per case, its class name in A, else in B; null when a case's class differs between the
 * runs (their category maps differ), since per-class pairs would then mix classes.
 */
function sharedClasses(a: CaseTable, b: CaseTable): (string | null)[] | null {
	const rowOfB = new Map(b.case_numbers.map((c, i) => [c, i]));
	const names: (string | null)[] = [];
	for (let i = 0; i < a.case_numbers.length; i++) {
		const ca = a.class_of[i];
		const cb = b.class_of[rowOfB.get(a.case_numbers[i])!];
		const na = ca < 0 ? null : a.classes[ca];
		const nb = cb < 0 ? null : b.classes[cb];
		if (na !== null && nb !== null && na !== nb) return null;
		names.push(na ?? nb);
	}
	return names;
}

/**
 * B − A of every rate on the cases both runs select, overall and per class, with paired
 * bootstrap intervals and p-values. Throws RangeError when the selected cases differ (see
 * `pairingProblem`). A stage not scored in either run is null.
 */
export function pairedBootstrap(
	a: CaseTable,
	b: CaseTable,
	options: BootstrapOptions = {}
): PairedComparison {
	const problem = pairingProblem(a, b);
	if (problem !== null) throw new RangeError(problem);
	const settings = bootstrapSettings(options);
	const scored = bothScored(a.scored, b.scored);
	const samples = new Float64Array(settings.resamples * SLOTS);
	const resampler = new Resampler([a.counts, alignRows(a, b)]);
	const run = (rows: Int32Array, scope: string) =>
		scopeDifferences(
			resampler,
			rows,
			scored,
			new Prng(scopeSeed(settings.seed, scope)),
			settings.resamples,
			samples
		);

	const notes: CoreText[] = [];
	const by_class: Record<string, RateTree<Difference>> = {};
	const names = sharedClasses(a, b);
	if (names === null) {
		notes.push(coded('cmp_note_classes', {}));
	} else {
		const order = [...a.classes, ...b.classes.filter((c) => !a.classes.includes(c))];
		for (const cls of order) {
			const rows = Int32Array.from(names.flatMap((name, i) => (name === cls ? [i] : [])));
			if (rows.length > 0) by_class[cls] = run(rows, cls);
		}
	}
	return {
		n_cases: a.case_numbers.length,
		metrics: run(
			Int32Array.from(a.case_numbers, (_, i) => i),
			''
		),
		by_class,
		notes
	};
}

/**
 * Rank stability across judges (metrics/README.md, "Rank stability"): Kendall's τ-b between the
 * models' scores under judge A and under judge B, a case-bootstrap interval, and the pairs of
 * models the two judges order differently. Every model's two runs select the same cases.
 */
import {
	bootstrapSettings,
	MIN_CASES,
	MIN_DEFINED_SHARE,
	percentileInterval,
	type BootstrapOptions,
	type Interval
} from './bootstrap';
import { ROW_WIDTH, type CaseTable } from './case-table';
import { evaluateRates, SLOTS } from './kernel';
import { Prng, scopeSeed } from './prng';

/** Kendall's τ-b of paired values (ties corrected); null with fewer than two pairs or no order. */
export function kendallTauB(x: readonly number[], y: readonly number[]): number | null {
	let concordant = 0;
	let discordant = 0;
	let tiesX = 0;
	let tiesY = 0;
	for (let i = 0; i < x.length; i++) {
		for (let j = i + 1; j < x.length; j++) {
			const dx = Math.sign(x[i] - x[j]);
			const dy = Math.sign(y[i] - y[j]);
			if (dx === 0 && dy === 0) continue;
			if (dx === 0) tiesX++;
			else if (dy === 0) tiesY++;
			else if (dx === dy) concordant++;
			else discordant++;
		}
	}
	const denominator = Math.sqrt(
		(concordant + discordant + tiesX) * (concordant + discordant + tiesY)
	);
	return denominator === 0 ? null : (concordant - discordant) / denominator;
}

/** One model's case tables under the two judges (same cases, same order). */
export interface JudgedModel {
	model: string;
	a: CaseTable;
	b: CaseTable;
}

export interface RankStability {
	/** The rate compared (a slot of `RATE_SLOTS`). */
	slot: number;
	/** Models with the rate defined under both judges, with their scores. */
	scores: { model: string; a: number; b: number }[];
	tau: number | null;
	/** Case-bootstrap percentile interval; null under MIN_CASES cases or when τ is undefined. */
	ci95: Interval;
	/** Pairs of models judge B orders the other way round from judge A (ties are no swap). */
	swaps: [string, string][];
}

/** The rate `slot` of the cases drawn `times[i]` times each. */
function rateOf(
	table: CaseTable,
	times: Int32Array,
	slot: number,
	acc: Float64Array,
	out: Float64Array
): number {
	acc.fill(0);
	for (let i = 0; i < times.length; i++) {
		if (times[i] === 0) continue;
		const o = i * ROW_WIDTH;
		for (let k = 0; k < ROW_WIDTH; k++) acc[k] += times[i] * table.counts[o + k];
	}
	evaluateRates(acc, out, 0);
	return out[slot];
}

/**
 * τ of rate `slot` between the judges over `models`. Cases are resampled together for every
 * model and both judges (one draw per resample), as the paired comparison does.
 */
export function rankStability(
	models: readonly JudgedModel[],
	slot: number,
	options: BootstrapOptions = {}
): RankStability {
	const n = models[0]?.a.case_numbers.length ?? 0;
	const same = (t: CaseTable) =>
		t.case_numbers.length === n &&
		t.case_numbers.every((c, i) => c === models[0].a.case_numbers[i]);
	if (!models.every((m) => same(m.a) && same(m.b))) {
		throw new RangeError('every run must select the same cases, in the same order');
	}
	const acc = new Float64Array(ROW_WIDTH);
	const out = new Float64Array(SLOTS);
	const scoresAt = (times: Int32Array) =>
		models.map((m) => [rateOf(m.a, times, slot, acc, out), rateOf(m.b, times, slot, acc, out)]);
	const all = new Int32Array(n).fill(1);
	const defined = scoresAt(all)
		.map(([a, b], i) => ({ model: models[i].model, a, b, i }))
		.filter((s) => !Number.isNaN(s.a) && !Number.isNaN(s.b));
	const tauOf = (pairs: number[][]) =>
		kendallTauB(
			pairs.map((p) => p[0]),
			pairs.map((p) => p[1])
		);
	const tau = tauOf(defined.map((s) => [s.a, s.b]));
	const swaps: [string, string][] = [];
	for (let i = 0; i < defined.length; i++) {
		for (let j = i + 1; j < defined.length; j++) {
			const [p, q] = [defined[i], defined[j]];
			if (Math.sign(p.a - q.a) * Math.sign(p.b - q.b) < 0) swaps.push([p.model, q.model]);
		}
	}
	let ci95: Interval = null;
	if (tau !== null && n >= MIN_CASES) {
		const { resamples, seed } = bootstrapSettings(options);
		const rng = new Prng(scopeSeed(seed, `tau/${slot}`));
		const taus: number[] = [];
		const times = new Int32Array(n);
		for (let b = 0; b < resamples; b++) {
			times.fill(0);
			for (let j = 0; j < n; j++) times[rng.below(n)]++;
			const drawn = scoresAt(times).filter((_, i) => defined.some((s) => s.i === i));
			const t = tauOf(drawn.filter(([a, b]) => !Number.isNaN(a) && !Number.isNaN(b)));
			if (t !== null) taus.push(t);
		}
		if (taus.length >= MIN_DEFINED_SHARE * resamples)
			ci95 = percentileInterval(Float64Array.from(taus).sort());
	}
	return { slot, scores: defined.map(({ model, a, b }) => ({ model, a, b })), tau, ci95, swaps };
}

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
	Resampler,
	type BootstrapOptions,
	type Interval
} from './bootstrap';
import type { CaseTable } from './case-table';
import { SLOTS } from './kernel';
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
	// Runs 2k and 2k + 1 are model k under judges A and B.
	const resampler = new Resampler(models.flatMap((m) => [m.a.counts, m.b.counts]));
	const rows = Int32Array.from({ length: n }, (_, i) => i);
	const scoresAt = (rates: Float64Array) =>
		models.map((_, k) => [rates[2 * k * SLOTS + slot], rates[(2 * k + 1) * SLOTS + slot]]);
	const defined = scoresAt(resampler.observed(rows))
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
		resampler.resample(rows, rng, resamples, (_, rates) => {
			const drawn = scoresAt(rates).filter((_, i) => defined.some((s) => s.i === i));
			const t = tauOf(drawn.filter(([a, b]) => !Number.isNaN(a) && !Number.isNaN(b)));
			if (t !== null) taus.push(t);
		});
		if (taus.length >= MIN_DEFINED_SHARE * resamples)
			ci95 = percentileInterval(Float64Array.from(taus).sort());
	}
	return { slot, scores: defined.map(({ model, a, b }) => ({ model, a, b })), tau, ci95, swaps };
}

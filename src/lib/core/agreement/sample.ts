/**
 * A seeded, stratified random sample of judge decisions for review (README.md, "The sample").
 * Each judged stage group first gets its share of the sample: at least {@link STAGE_FLOOR}
 * decisions where the run has them (every figure of a stage needs that many reviewed), the rest
 * in proportion to the decisions left, or a size the reviewer sets for it. Within a stage group
 * the strata are cause class × the judge's label, allocated in proportion (largest remainder),
 * so each stage's share is self-weighting: its plain agreement figures estimate the run's.
 */
import { Prng, scopeSeed } from '../metrics/prng';
import { STAGE_GROUPS, stageGroup, type StageGroup } from '../protocol';
import type { Decision } from './decisions';
import { MIN_RATED } from './kappa';

/**
 * Decisions of each stage group a sample takes at least, where the run has them and the sample
 * is large enough: the reviewed decisions a stage's κ interval and corrected estimates need.
 */
export const STAGE_FLOOR = MIN_RATED;

/** A sample size per stage group, set by the reviewer (the others share the rest). */
export type StageSizes = Partial<Record<StageGroup, number>>;

/** The stratum of a decision: stage group, class and label, as one string. */
export function stratumOf(d: Decision): string {
	return JSON.stringify([stageGroup(d.id.stage), d.cls, d.label]);
}

function byText(a: string, b: string): number {
	return a < b ? -1 : a > b ? 1 : 0;
}

/** How many of each stratum a sample of `size` takes: proportional, largest remainder first. */
export function allocate(sizes: ReadonlyMap<string, number>, size: number): Map<string, number> {
	const total = [...sizes.values()].reduce((a, b) => a + b, 0);
	const take = Math.min(size, total);
	const keys = [...sizes.keys()].sort(byText);
	const quota = new Map(keys.map((k) => [k, total === 0 ? 0 : (take * sizes.get(k)!) / total]));
	const out = new Map(keys.map((k) => [k, Math.floor(quota.get(k)!)]));
	let left = take - [...out.values()].reduce((a, b) => a + b, 0);
	const order = [...keys].sort(
		(a, b) => quota.get(b)! - out.get(b)! - (quota.get(a)! - out.get(a)!) || byText(a, b)
	);
	for (const k of order) {
		if (left === 0) break;
		out.set(k, out.get(k)! + 1);
		left--;
	}
	return out;
}

/**
 * How many decisions of each stage group a sample of `size` takes, `available` the decisions each
 * group has. A group given in `sizes` takes that many (at most all it has), out of `size`; the
 * other groups share what is left: each first up to STAGE_FLOOR (one at a time, in stage order,
 * while the sample lasts), then the rest in proportion to the decisions each has beyond that.
 */
export function allocateStages(
	available: Readonly<Record<StageGroup, number>>,
	size: number,
	sizes: StageSizes = {}
): Record<StageGroup, number> {
	const out = { lca: 0, dcg: 0, ljp: 0 };
	let left = size;
	for (const g of STAGE_GROUPS) {
		const set = sizes[g];
		if (set === undefined) continue;
		out[g] = Math.min(set, available[g]);
		left = Math.max(0, left - out[g]);
	}
	const shared = STAGE_GROUPS.filter((g) => sizes[g] === undefined);
	const floor = (g: StageGroup) => Math.min(available[g], STAGE_FLOOR);
	for (let more = true; more && left > 0;) {
		more = false;
		for (const g of shared) {
			if (left === 0 || out[g] >= floor(g)) continue;
			out[g]++;
			left--;
			more = true;
		}
	}
	const beyond = new Map(shared.map((g) => [g, available[g] - out[g]]));
	for (const [g, n] of allocate(beyond, left)) out[g as StageGroup] += n;
	return out;
}

/** The first `count` of `items` after a seeded Fisher–Yates shuffle (a copy). */
function shuffled<T>(items: readonly T[], rng: Prng, count = items.length): T[] {
	const a = [...items];
	for (let i = 0; i < count; i++) {
		const j = i + rng.below(a.length - i);
		[a[i], a[j]] = [a[j], a[i]];
	}
	return a.slice(0, count);
}

/**
 * `size` decisions drawn without replacement, stratified as above (`sizes`: a size per stage
 * group the reviewer set), in a seeded random order; the same decisions, sizes and seed always
 * give the same sample, whatever order the decisions come in.
 */
export function sampleDecisions(
	decisions: readonly Decision[],
	size: number,
	seed: number,
	sizes: StageSizes = {}
): Decision[] {
	for (const n of [size, ...Object.values(sizes)]) {
		if (!Number.isInteger(n) || n! < 0)
			throw new RangeError(`size must be a whole number, got ${n}`);
	}
	const strata = new Map<string, Decision[]>();
	const available = { lca: 0, dcg: 0, ljp: 0 };
	for (const d of decisions) {
		available[stageGroup(d.id.stage)]++;
		const key = stratumOf(d);
		const list = strata.get(key);
		if (list) list.push(d);
		else strata.set(key, [d]);
	}
	const shares = allocateStages(available, size, sizes);
	const chosen: Decision[] = [];
	for (const g of STAGE_GROUPS) {
		const own = [...strata].filter(([key]) => JSON.parse(key)[0] === g);
		const quotas = allocate(new Map(own.map(([k, v]) => [k, v.length])), shares[g]);
		for (const [key, count] of quotas) {
			const members = strata.get(key)!.sort((a, b) => byText(a.key, b.key));
			chosen.push(...shuffled(members, new Prng(scopeSeed(seed, key)), count));
		}
	}
	return shuffled(chosen, new Prng(scopeSeed(seed, 'order')));
}

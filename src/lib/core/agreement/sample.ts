/**
 * A seeded, stratified random sample of judge decisions for review (README.md, "The sample").
 * Strata: stage group × cause class × the judge's label. Allocation is proportional (largest
 * remainder), so the sample is self-weighting: plain agreement figures on it estimate the run's.
 */
import { Prng, scopeSeed } from '../metrics/prng';
import { stageGroup } from '../protocol';
import type { Decision } from './decisions';

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
 * `size` decisions drawn without replacement, stratified as above, in a seeded random order;
 * the same decisions, size and seed always give the same sample, whatever order the
 * decisions come in.
 */
export function sampleDecisions(
	decisions: readonly Decision[],
	size: number,
	seed: number
): Decision[] {
	if (!Number.isInteger(size) || size < 0)
		throw new RangeError(`size must be a whole number, got ${size}`);
	const strata = new Map<string, Decision[]>();
	for (const d of decisions) {
		const key = stratumOf(d);
		const list = strata.get(key);
		if (list) list.push(d);
		else strata.set(key, [d]);
	}
	const quotas = allocate(new Map([...strata].map(([k, v]) => [k, v.length])), size);
	const chosen: Decision[] = [];
	for (const [key, count] of quotas) {
		const members = strata.get(key)!.sort((a, b) => byText(a.key, b.key));
		chosen.push(...shuffled(members, new Prng(scopeSeed(seed, key)), count));
	}
	return shuffled(chosen, new Prng(scopeSeed(seed, 'order')));
}

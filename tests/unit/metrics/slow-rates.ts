/**
 * The slow, obvious side of the bootstrap specs: rates scored by the record-level metric functions
 * (not the kernel) over case records laid one after another, and numpy's default percentile.
 */
import { dcgMetrics } from '../../../src/lib/core/metrics/dcg';
import { RATE_SLOTS, type RateTree } from '../../../src/lib/core/metrics/kernel';
import { lcaMetrics } from '../../../src/lib/core/metrics/lca';
import { ljpMetrics } from '../../../src/lib/core/metrics/ljp';
import type { FullRecords } from './random-records';

/** Every rate of some records, keyed `stage.metric` as `flattenRates` keys them. */
export function rates(r: FullRecords): Record<string, number | null> {
	const lca = lcaMetrics(r.LCA_results);
	const dcg = dcgMetrics(r.DCG_results);
	const ljp = (f: 'LJP_direct' | 'LJP_gold' | 'LJP_interaction') => ljpMetrics(r[f]);
	return {
		'lca.macro_f1': lca.macro_f1,
		'lca.f1_u': lca.f1_u,
		'lca.f1_c': lca.f1_c,
		'lca.acc_c': lca.acc_c,
		'lca.acc_u': lca.acc_u,
		'dcg.success_rate': dcg.success_rate,
		'dcg.round1_rate': dcg.round1_rate,
		'dcg.round2_rate': dcg.round2_rate,
		'direct.qwk': ljp('LJP_direct').qwk,
		'direct.accuracy': ljp('LJP_direct').accuracy,
		'gold.qwk': ljp('LJP_gold').qwk,
		'gold.accuracy': ljp('LJP_gold').accuracy,
		'interaction.qwk': ljp('LJP_interaction').qwk,
		'interaction.accuracy': ljp('LJP_interaction').accuracy
	};
}

/** A rate tree's values keyed `stage.metric`, in `RATE_SLOTS` order. */
export function flattenRates<T>(tree: RateTree<T>): Record<string, T> {
	const out: Record<string, T> = {};
	for (const [stage, metric] of RATE_SLOTS) {
		const obj = (
			stage === 'lca' ? tree.lca : stage === 'dcg' ? tree.dcg : tree.ljp[stage]
		) as Record<string, T>;
		out[`${stage}.${metric}`] = obj[metric];
	}
	return out;
}

/** The records of `cases` one after another (a case drawn twice counts twice). */
export function concatCases(
	cases: readonly string[],
	recordsOf: (caseNumber: string) => FullRecords
): FullRecords {
	const out: FullRecords = {
		LCA_results: [],
		DCG_results: [],
		LJP_direct: [],
		LJP_gold: [],
		LJP_interaction: []
	};
	for (const c of cases) {
		const r = recordsOf(c);
		for (const f of Object.keys(out) as (keyof FullRecords)[]) (out[f] as unknown[]).push(...r[f]);
	}
	return out;
}

/** numpy's default percentile (linear), written out again here. */
export function numpyPercentile(values: number[], q: number): number {
	const s = [...values].sort((a, b) => a - b);
	const pos = (s.length - 1) * q;
	const below = Math.floor(pos);
	const above = Math.ceil(pos);
	return s[below] * (1 - (pos - below)) + s[above] * (pos - below);
}

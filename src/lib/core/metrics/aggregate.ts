/**
 * Repeated runs (PROTOCOL.md §7): metrics are computed per run first, then summarised here. A value
 * that is null in some runs is summarised over the runs where it is defined, and `n_defined`
 * says how many those were (see README.md for why).
 */
import {
	DCG_KEYS,
	LCA_KEYS,
	LJP_KEYS,
	type Count,
	type CountTree,
	type LjpSetup,
	type MetricsTree,
	type Stat,
	type StatTree
} from './types';
import { mean, sampleSd } from './moments';

/** Mean, sample SD and the number of runs each value was defined in, shaped like a run's metrics. */
export interface Aggregate {
	mean: StatTree;
	sd: StatTree;
	n_defined: CountTree;
}

interface Summary<T> {
	mean: Stat<T>;
	sd: Stat<T>;
	n_defined: Count<T>;
}

/** Null when no run has this stage (missing or incomplete everywhere). */
function summarise<T extends object>(
	objects: readonly (T | null)[],
	keys: readonly (keyof T & string)[]
): Summary<T> | null {
	const present = objects.filter((o): o is T => o !== null);
	if (present.length === 0) return null;
	const out = { mean: {}, sd: {}, n_defined: {} } as Summary<T>;
	for (const k of keys) {
		const values = present
			.map((o) => o[k])
			.filter((v): v is T[typeof k] & number => typeof v === 'number');
		out.mean[k] = mean(values);
		out.sd[k] = sampleSd(values);
		out.n_defined[k] = values.length;
	}
	return out;
}

function perSetup<V>(f: (s: LjpSetup) => V): Record<LjpSetup, V> {
	return { direct: f('direct'), gold: f('gold'), interaction: f('interaction') };
}

/** Summarises the same metrics (a whole run, or one class) over a group of comparable runs. */
export function aggregateTrees(trees: readonly MetricsTree[]): Aggregate {
	const lca = summarise(
		trees.map((t) => t.lca),
		LCA_KEYS
	);
	const dcg = summarise(
		trees.map((t) => t.dcg),
		DCG_KEYS
	);
	const ljp = perSetup((s) =>
		summarise(
			trees.map((t) => t.ljp[s]),
			LJP_KEYS
		)
	);
	const pick = <P extends keyof Summary<object>>(part: P) => ({
		lca: lca?.[part] ?? null,
		dcg: dcg?.[part] ?? null,
		ljp: perSetup((s) => ljp[s]?.[part] ?? null)
	});
	return {
		mean: pick('mean') as StatTree,
		sd: pick('sd') as StatTree,
		n_defined: pick('n_defined') as CountTree
	};
}

/** The words of the engine: stages, the dataset it runs, and what it reports. */
import type { Case, CategoryMap, HistoryFields } from '../dataset/types';
import type { Role, StageFile } from '../records';

/** The stages of SPEC §4, plus `lca`: re-judging saved a1 responses (SPEC §8 `lca` command). */
export const STAGE_NAMES = [
	'gen',
	'lca',
	'dcg',
	'ljp-direct',
	'ljp-gold',
	'ljp-interaction'
] as const;
export type StageName = (typeof STAGE_NAMES)[number];

/** The files each stage writes, in the order a case's records are appended. */
export const STAGE_OUTPUTS: Record<StageName, readonly StageFile[]> = {
	gen: ['a1', 'LCA_results', 'interaction'],
	lca: ['LCA_results'],
	dcg: ['force_ask', 'DCG_results'],
	'ljp-direct': ['a1_direct', 'LJP_direct'],
	'ljp-gold': ['a1_force_judge', 'LJP_gold'],
	'ljp-interaction': ['LJP_interaction']
};

/**
 * What the engine needs of a loaded dataset. The loader's `Dataset` fits it; so does any
 * object a test builds by hand.
 */
export interface RunDataset {
	/** Every case in file order; the run takes the first `limit`. */
	cases: Case[];
	/** SHA-256 of the file's bytes. */
	sha256: string;
	historyFields: HistoryFields;
	/** cause → class, recorded in the manifest. */
	categories: CategoryMap;
}

export type TokenCounts = { prompt: number; completion: number };

/** A snapshot of one stage, sent on every change. */
export interface StageProgress {
	stage: StageName;
	status: 'running' | 'done' | 'failed' | 'aborted';
	/** Selected cases. */
	total: number;
	/** Cases finished for this stage, resumed ones included. */
	done: number;
	/** Of `done`, cases whose records were already saved (no model call). */
	resumed: number;
	/** Cases being worked on now. */
	inFlight: number;
	/** Retried calls (network, rate limit, rejected output) and re-asked judges. */
	retries: number;
	/** Cases that failed; the stage stops at the first. */
	failures: number;
	/** Model calls answered, by role. */
	calls: Record<Role, number>;
	/** Tokens as reported by the provider (or estimated by the simulated one), by role. */
	tokens: Record<Role, TokenCounts>;
	/** `Date.now()` when the stage started. */
	startedAt: number;
	/** Milliseconds since `startedAt`. */
	elapsedMs: number;
	/** The error that stopped the stage. */
	error?: string;
}

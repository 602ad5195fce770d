/**
 * The ideal wall time of an engine run, computed from the calls it made (PERFORMANCE.md,
 * "Engine throughput"). Pure functions, so the definition can be tested on its own.
 */

/** One model call as the latency wrapper saw it. */
export interface TimedCall {
	/** The stage that was running; stages run one after another. */
	stage: string;
	caseNumber: string;
	/** The latency the simulated provider was told to add, in ms: the weight of the call. */
	latencyMs: number;
	/** `performance.now()` when the engine made the call. */
	start: number;
	/** `performance.now()` when the call returned to the engine. */
	end: number;
}

/** Per stage: every case's chain, in ms. */
export type StageChains = Map<string, number[]>;

/** How much a call weighs in a chain. */
export type Weigh = (call: TimedCall) => number;

/** The latency the provider was told to add: what the best possible engine would wait. */
export const intended: Weigh = (call) => call.latencyMs;
/** The time the call really took to come back, timer lateness included. */
export const measured: Weigh = (call) => call.end - call.start;

/**
 * A case's chain in a stage: the largest summed latency over calls of that case and stage
 * that ran one after another (each started at or after the previous one returned). Calls
 * that overlapped, such as the two histories' a1 calls, count once: they are not a chain.
 */
export function chainOf(calls: readonly TimedCall[], weigh: Weigh = intended): number {
	const sorted = [...calls].sort((a, b) => a.start - b.start);
	const best: number[] = [];
	for (const [j, call] of sorted.entries()) {
		let before = 0;
		for (let i = 0; i < j; i++) {
			if (sorted[i].end <= call.start) before = Math.max(before, best[i]);
		}
		best.push(before + weigh(call));
	}
	return Math.max(0, ...best);
}

/** Groups calls by stage and case and returns each case's chain. */
export function stageChains(calls: readonly TimedCall[], weigh: Weigh = intended): StageChains {
	const groups = new Map<string, Map<string, TimedCall[]>>();
	for (const call of calls) {
		const byCase = groups.get(call.stage) ?? new Map<string, TimedCall[]>();
		const list = byCase.get(call.caseNumber) ?? [];
		list.push(call);
		byCase.set(call.caseNumber, list);
		groups.set(call.stage, byCase);
	}
	return new Map(
		[...groups].map(([stage, byCase]) => [
			stage,
			[...byCase.values()].map((calls) => chainOf(calls, weigh))
		])
	);
}

export interface Ideal {
	/** Σ over stages of the longest case chain: the run's length with unlimited concurrency. */
	criticalPathMs: number;
	/** Σ over stages and cases of the case chains: the run's length at concurrency 1. */
	workMs: number;
	/**
	 * Σ over stages of max(longest chain, Σ chains / concurrency): no schedule of whole cases
	 * on `concurrency` lanes, stage after stage, can be shorter.
	 */
	idealMs: number;
}

export function idealTime(chains: StageChains, concurrency: number): Ideal {
	let criticalPathMs = 0;
	let workMs = 0;
	let idealMs = 0;
	for (const perCase of chains.values()) {
		const longest = Math.max(0, ...perCase);
		const work = perCase.reduce((sum, chain) => sum + chain, 0);
		criticalPathMs += longest;
		workMs += work;
		idealMs += Math.max(longest, work / concurrency);
	}
	return { criticalPathMs, workMs, idealMs };
}

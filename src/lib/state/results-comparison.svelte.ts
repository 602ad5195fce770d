/**
 * The paired comparison of two runs picked on the Results page: B − A case by case, computed in
 * the stats worker, or refused with the reason (different cases or datasets).
 */
import { Latest } from './latest';
import type { ComparisonReport, LoadedRun } from '$lib/core/results';
import { saidOf } from '$lib/core/errors';
import { refusalOf, refusalText } from '$lib/view/compare-refusal';
import { coreText } from './core-text.svelte';
import type { StatsClient } from './stats-client';

/** The paired comparison of two runs picked on the page. */
export interface ComparisonState {
	a: string;
	b: string;
	status: 'computing' | 'ready' | 'refused';
	report: ComparisonReport | null;
	/**
	 * Why the runs cannot be compared (different cases or datasets), in the interface language
	 * at each read, or what failed.
	 */
	readonly error: string | null;
}

export class Comparison {
	/** The comparison shown, or null. */
	current = $state.raw<ComparisonState | null>(null);
	#latest = new Latest();
	#stats: StatsClient;

	constructor(stats: StatsClient) {
		this.#stats = stats;
	}

	/** A comparison asked for (by a link) before its runs are read. */
	pending(a: string, b: string): void {
		this.current = { a, b, status: 'computing', report: null, error: null };
	}

	/**
	 * Compares run B with run A (keys) case by case in the worker: B − A with paired intervals
	 * and p-values. Runs whose selected cases differ are refused, with the reason.
	 */
	async compare(a: string, b: string, runA?: LoadedRun, runB?: LoadedRun): Promise<void> {
		const current = this.#latest.begin();
		const refusal = refusalOf(a, b, runA, runB);
		if (refusal || !runA || !runB) {
			this.current = {
				a,
				b,
				status: 'refused',
				report: null,
				get error() {
					return refusal ? refusalText(refusal) : null;
				}
			};
			return;
		}
		this.pending(a, b);
		try {
			const report = await this.#stats.compare(runA, runB);
			if (!current()) return;
			this.current = { a, b, status: 'ready', report, error: null };
		} catch (e) {
			if (!current()) return;
			const message = (e as Error).message;
			const said = saidOf(e);
			this.current = {
				a,
				b,
				status: 'refused',
				report: null,
				get error() {
					return coreText(message, said);
				}
			};
		}
	}

	clear(): void {
		this.#latest.cancel();
		this.current = null;
	}
}

/**
 * Judge–judge agreement of the re-judged runs Results shows: each shown run whose manifest names
 * the run it re-judged (`rejudged_from`), with that run stored beside it, is compared with it by
 * the core's `compareJudges`, the computation behind `results --judges A,B` (metrics/README.md,
 * "Judge agreement"): per model and stage the agreement rate, κ with its interval and the
 * confusion matrix, and with two models or more the stability of their ranking.
 */
import { Latest } from './latest';
import type { BundleView } from '$lib/adapters/bundle-view';
import { saidOf } from '$lib/core/errors';
import type { RunKey } from '$lib/core/layout';
import type { JudgesReport } from '$lib/core/results/judges';
import type { LayoutSource } from '$lib/core/results/source';
import type { CoreText } from '$lib/core/said';
import type { StoredRun } from '$lib/core/store/types';
import { judgedPairs } from './judged-pairs';
import { layoutSourceModule, openSharedIdbStore } from './lazy-store';

export { judgedPairs, type JudgedPair } from './judged-pairs';

export class ResultsJudgesState {
	/** One report per pair of run ids, in `judgedPairs` order. */
	reports = $state.raw<JudgesReport[]>([]);
	error = $state<string | null>(null);
	/** The error's coded pieces, for the page's language (null: say `error` as it is). */
	errorSaid = $state.raw<CoreText[] | null>(null);
	#latest = new Latest();

	/**
	 * Compares the shown re-judged runs with their sources, read from the open bundle or from
	 * this browser's storage. Nothing is shown without a re-judged run whose source is there.
	 */
	async load(
		shown: readonly StoredRun[],
		stored: readonly StoredRun[],
		bundle: BundleView | null
	): Promise<void> {
		const current = this.#latest.begin();
		const pairs = judgedPairs(shown, stored);
		try {
			if (pairs.length === 0) {
				this.#show([]);
				return;
			}
			const [{ compareJudges }, layout] = await Promise.all([
				import('$lib/core/results/judges'),
				layoutOf(bundle)
			]);
			const reports: JudgesReport[] = [];
			for (const p of pairs) {
				const report = await compareJudges(layout(p.runs), { a: p.a, b: p.b });
				if (!current()) return;
				if (report.models.length > 0) reports.push(report);
			}
			if (current()) this.#show(reports);
		} catch (e) {
			if (!current()) return;
			this.reports = [];
			this.error = (e as Error).message;
			this.errorSaid = saidOf(e) ?? null;
		}
	}

	#show(reports: JudgesReport[]) {
		this.reports = reports;
		this.error = null;
		this.errorSaid = null;
	}
}

async function layoutOf(
	bundle: BundleView | null
): Promise<(runs: readonly RunKey[]) => LayoutSource> {
	if (bundle) return (runs) => bundle.layout(runs);
	const [{ idbLayoutSource }, store] = await Promise.all([
		layoutSourceModule(),
		openSharedIdbStore()
	]);
	return (runs) => idbLayoutSource(store, { runs: [...runs] });
}

export const resultsJudges = new ResultsJudgesState();

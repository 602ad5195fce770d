/**
 * The reviews of the runs Results shows (`reviews/…` kept in this browser) and what they do to
 * the judged metrics: each reviewed run's corrected estimates, computed as `results` does.
 */
import { Latest } from './latest';
import type { RunReviews } from '$lib/core/agreement/run-reviews';
import type { RunReport } from '$lib/core/results/report';
import { saidOf } from '$lib/core/errors';
import type { CoreText } from '$lib/core/said';
import { layoutSourceModule, openSharedIdbStore } from './lazy-store';

export class ResultsReviewsState {
	runs = $state.raw<RunReviews[]>([]);
	error = $state<string | null>(null);
	/** The error's coded pieces, for the page's language (null: say `error` as it is). */
	errorSaid = $state.raw<CoreText[] | null>(null);
	#latest = new Latest();

	/** Reads the reviews of `runs` (nothing shown for a run without any). */
	async load(runs: readonly RunReport[]): Promise<void> {
		const current = this.#latest.begin();
		try {
			const [{ runReviews }, { idbLayoutSource }, store] = await Promise.all([
				import('$lib/core/agreement/run-reviews'),
				layoutSourceModule(),
				openSharedIdbStore()
			]);
			const keys = runs.map((r) => ({ runId: r.run_id, modelDir: r.model_dir }));
			const got = await runReviews(idbLayoutSource(store, { runs: keys }), runs);
			if (!current()) return;
			this.runs = got;
			this.error = null;
			this.errorSaid = null;
		} catch (e) {
			if (!current()) return;
			this.runs = [];
			this.error = (e as Error).message;
			this.errorSaid = saidOf(e) ?? null;
		}
	}
}

export const resultsReviews = new ResultsReviewsState();

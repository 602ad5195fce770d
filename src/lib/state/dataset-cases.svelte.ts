/**
 * The cases of a large dataset brought to the page: the loader's worker keeps them until the
 * Run or Inspect page asks for every one (`DatasetState.loadCases`), with their progress and
 * why the last fetch failed. One fetch per dataset head at a time.
 */
import type { Case } from '$lib/core/dataset/types';
import type { DatasetHead } from '$lib/adapters/workers/dataset-load-protocol';
import type { DatasetLoader } from '$lib/adapters/workers/dataset-loader';

export class CaseFetch {
	/** Cases arriving on the page, or null. */
	loading = $state.raw<{ done: number; total: number } | null>(null);
	/** Why the last fetch failed, or null. */
	error = $state<string | null>(null);
	#pending: { head: DatasetHead; done: Promise<void> } | null = null;

	/** Forgets the progress and failure of an earlier dataset. */
	reset(): void {
		this.loading = null;
		this.error = null;
	}

	/**
	 * Fetches the cases of `head` from the loader (under `handle`) and hands them to `done`,
	 * unless `current` says the dataset changed meanwhile; a second call for the same head
	 * waits on the first.
	 */
	fetch(
		loader: DatasetLoader,
		handle: number,
		head: DatasetHead,
		current: () => boolean,
		done: (cases: Case[]) => void
	): Promise<void> {
		if (this.#pending?.head === head) return this.#pending.done;
		this.error = null;
		this.loading = { done: 0, total: head.caseCount };
		const run = (async () => {
			const outcome = await loader.cases(handle, head.caseCount, (progress) => {
				if (current()) this.loading = { done: progress.done, total: progress.total };
			});
			if (!current()) return;
			this.loading = null;
			if (!outcome.ok) {
				this.error = outcome.message;
				return;
			}
			done(outcome.cases);
		})();
		const pending = {
			head,
			done: run.finally(() => {
				if (this.#pending === pending) this.#pending = null;
			})
		};
		this.#pending = pending;
		return pending.done;
	}
}

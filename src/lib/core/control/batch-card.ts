/**
 * What feeds the single run's Progress card in batch mode (`BatchCard`): the saved round state as
 * it changes, the waiting round's input files, and the longest chain of dependent calls so far,
 * read again from the saved answers only when a round has been answered (not at every poll).
 */
import { longestChain } from '../batch/chain';
import type { BatchSendMode, BatchState, SavedBatchAnswer } from '../batch/store';
import { batchView, type BatchCard, type BatchView } from './batch-view';

export class BatchCardFeed {
	#state: BatchState | null = null;
	#inputs: BatchView['inputs'] = [];
	#chain = 0;
	/** The answered requests the chain was last counted at. */
	#counted = -1;

	readonly #mode: BatchSendMode;
	readonly #answers: () => Promise<SavedBatchAnswer[]>;
	readonly #onCard: (card: BatchCard) => void;

	constructor(
		mode: BatchSendMode,
		answers: () => Promise<SavedBatchAnswer[]>,
		onCard: (card: BatchCard) => void
	) {
		this.#mode = mode;
		this.#answers = answers;
		this.#onCard = onCard;
	}

	/** Shows `state` (and, files mode waiting, the round's `inputs`; else none). */
	show(state: BatchState | null, inputs: BatchView['inputs'] = []): void {
		this.#state = state;
		this.#inputs = inputs;
		const answered = this.#emit()?.answered ?? 0;
		if (answered === this.#counted) return;
		this.#counted = answered;
		void this.#answers().then(
			(all) => {
				this.#chain = longestChain(all);
				this.#emit();
			},
			() => {} // a figure of the card, not the run's: the next round counts again
		);
	}

	#emit(): BatchView | null {
		const view = this.#state && batchView(this.#state, this.#inputs);
		this.#onCard({ mode: this.#mode, view, longestChain: this.#chain });
		return view;
	}
}

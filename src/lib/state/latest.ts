/**
 * "The latest request wins": a view that asks again before an earlier answer came (another run
 * chosen, the dataset forgotten) drops the earlier answer when it arrives.
 *
 *     const current = this.#latest.begin();
 *     const answer = await ask();
 *     if (!current()) return;
 */
export class Latest {
	#n = 0;

	/** Starts a request; the function says whether it is still the latest. */
	begin(): () => boolean {
		const n = ++this.#n;
		return () => n === this.#n;
	}

	/** Whether nothing began (and nothing was cancelled) since now, without starting a request. */
	watch(): () => boolean {
		const n = this.#n;
		return () => n === this.#n;
	}

	/** Drops every answer still on its way. */
	cancel(): void {
		this.#n++;
	}
}

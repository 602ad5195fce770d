/**
 * The one call-rate model: answered calls per second over the last minute of running time, for
 * every ETA (a run's tracker, the session's snapshot). Readings of the calls answered so far are
 * kept for a minute; a pause is forgotten (`reset`), so time paused is no part of the rate.
 */

/** The call rate is measured over this much running time. */
export const RATE_WINDOW_MS = 60_000;

export class CallRate {
	#samples: { at: number; calls: number }[] = [];

	/** `calls` answered so far, at time `at` (ms). */
	note(calls: number, at: number): void {
		const last = this.#samples.at(-1);
		if (last && last.calls === calls) return;
		this.#samples.push({ at, calls });
		while (this.#samples.length > 2 && this.#samples[1].at < at - RATE_WINDOW_MS) {
			this.#samples.shift();
		}
	}

	/** Forgets what was seen: time paused is no part of the rate. */
	reset(): void {
		this.#samples = [];
	}

	/** Calls per second from the oldest reading in the window to now; null before two readings. */
	perSecond(now: number): number | null {
		const first = this.#samples[0];
		const last = this.#samples.at(-1);
		if (!first || !last || last === first) return null;
		const span = now - first.at;
		return span > 0 ? ((last.calls - first.calls) * 1000) / span : null;
	}
}

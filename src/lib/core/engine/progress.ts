/**
 * Progress of the stage that is running, for the UI and the CLI. The model client reports
 * retries through `noteRetry`, since only it sees them; the engine reports the rest.
 */
import { ROLES, type Role } from '../record-names';
import type { StageName, StageProgress, TokenCounts } from './types';

function perRole<T>(make: () => T): Record<Role, T> {
	return Object.fromEntries(ROLES.map((r) => [r, make()])) as Record<Role, T>;
}

export class RunProgress {
	#current: StageProgress | null = null;
	readonly #listener: (progress: StageProgress) => void;
	readonly #now: () => number;

	constructor(
		listener: (progress: StageProgress) => void = () => {},
		now: () => number = Date.now
	) {
		this.#listener = listener;
		this.#now = now;
	}

	/** The running (or last) stage's snapshot. */
	get current(): StageProgress | null {
		return this.#current ? { ...this.#current } : null;
	}

	start(stage: StageName, total: number, resumed: number): void {
		this.#current = {
			stage,
			status: 'running',
			total,
			done: resumed,
			resumed,
			inFlight: 0,
			retries: 0,
			failures: 0,
			calls: perRole(() => 0),
			tokens: perRole((): TokenCounts => ({ prompt: 0, completion: 0 })),
			startedAt: this.#now(),
			elapsedMs: 0
		};
		this.#emit();
	}

	caseStarted(): void {
		this.#update((p) => p.inFlight++);
	}

	/** `stopped`: cut short by a stop request, so neither done nor a failure. */
	caseFinished(outcome: 'done' | 'failed' | 'stopped'): void {
		this.#update((p) => {
			p.inFlight--;
			if (outcome === 'done') p.done++;
			if (outcome === 'failed') p.failures++;
		});
	}

	/** One answered model call of `role`, with the usage the provider reported. */
	call(role: Role, usage: { promptTokens: number; completionTokens: number } | null): void {
		this.#update((p) => {
			p.calls[role]++;
			p.tokens[role].prompt += usage?.promptTokens ?? 0;
			p.tokens[role].completion += usage?.completionTokens ?? 0;
		});
	}

	/** A retried call or a re-asked judge. Ignored between stages. */
	noteRetry(): void {
		this.#update((p) => p.retries++);
	}

	finish(status: 'done' | 'failed' | 'aborted', error?: string): void {
		this.#update((p) => {
			p.status = status;
			if (error !== undefined) p.error = error;
		});
	}

	#update(change: (p: StageProgress) => void): void {
		if (!this.#current) return;
		change(this.#current);
		this.#emit();
	}

	#emit(): void {
		if (!this.#current) return;
		this.#current.elapsedMs = this.#now() - this.#current.startedAt;
		this.#listener({
			...this.#current,
			calls: { ...this.#current.calls },
			tokens: Object.fromEntries(ROLES.map((r) => [r, { ...this.#current!.tokens[r] }])) as Record<
				Role,
				TokenCounts
			>
		});
	}
}

/**
 * Pause for a running run: no new case starts, cases already under way finish and are saved.
 * The engine has no pause of its own (only stop, which aborts calls in flight), so the gate sits
 * between the engine and the model client: a case's first call waits while the gate is closed;
 * later calls of a case that has started pass, so it can finish. Resuming opens the gate.
 */
import { ModelCallError } from '$lib/core/errors';
import type { ChatRequest, ModelClient } from '$lib/core/model/types';

export class PauseGate {
	#closed = false;
	/** Cases that made a call in the current stage: their later calls always pass. */
	#started = new Set<string>();
	/** Cases waiting at the gate for their first call. */
	#waiting = new Map<string, number>();
	#opened: Array<() => void> = [];
	readonly #onChange: () => void;

	/** `onChange` is told whenever a case starts or stops waiting, and on pause/resume. */
	constructor(onChange: () => void = () => {}) {
		this.#onChange = onChange;
	}

	get paused(): boolean {
		return this.#closed;
	}

	/** Cases held at the gate now. */
	get waitingCases(): number {
		return this.#waiting.size;
	}

	pause(): void {
		this.#closed = true;
		this.#onChange();
	}

	resume(): void {
		this.#closed = false;
		const opened = this.#opened.splice(0);
		for (const open of opened) open();
		this.#onChange();
	}

	/** A new stage starts: its cases have made no call yet. */
	newStage(): void {
		this.#started.clear();
	}

	/** `client`, with every case's first call held while the gate is closed. */
	wrap(client: ModelClient): ModelClient {
		return {
			simulated: client.simulated,
			complete: async (request) => {
				if (this.#closed && !this.#started.has(request.caseNumber)) await this.#wait(request);
				this.#started.add(request.caseNumber);
				return client.complete(request);
			}
		};
	}

	async #wait(request: ChatRequest): Promise<void> {
		const id = request.caseNumber;
		this.#waiting.set(id, (this.#waiting.get(id) ?? 0) + 1);
		this.#onChange();
		try {
			await new Promise<void>((resolve, reject) => {
				const signal = request.signal;
				if (signal?.aborted) return reject(stoppedWhilePaused(request));
				const onAbort = () => reject(stoppedWhilePaused(request));
				signal?.addEventListener('abort', onAbort, { once: true });
				this.#opened.push(() => {
					signal?.removeEventListener('abort', onAbort);
					resolve();
				});
			});
		} finally {
			const left = (this.#waiting.get(id) ?? 1) - 1;
			if (left > 0) this.#waiting.set(id, left);
			else this.#waiting.delete(id);
			this.#onChange();
		}
	}
}

function stoppedWhilePaused(request: ChatRequest): ModelCallError {
	return new ModelCallError(`case ${request.caseNumber}: stopped while the run was paused`, {
		caseNumber: request.caseNumber,
		role: request.role,
		task: request.task,
		kind: 'aborted'
	});
}

/**
 * Pause for a running run: no new case starts, cases already under way finish and are saved.
 * The engine has no pause of its own (only stop, which aborts calls in flight), so the gate sits
 * between the engine and the model client: a task's first call waits while the gate is closed;
 * later calls of a task that has started pass, so it can finish. Resuming opens the gate. A task
 * is one case of one stage (the request's `stage`): when stages run together (`runAll`), a case's
 * dcg does not slip through because its gen had started.
 */
import { ModelCallError } from '$lib/core/errors';
import { forwarding } from '$lib/core/forward';
import type { ChatRequest, ModelClient } from '$lib/core/model/types';

/** The task a call belongs to: its stage and case. */
function taskOf(request: ChatRequest): string {
	return `${request.stage ?? ''}\u0000${request.caseNumber}`;
}

export class PauseGate {
	#closed = false;
	/** Tasks that made a call: their later calls always pass. */
	#started = new Set<string>();
	/** Tasks waiting at the gate for their first call, with their stage. */
	#waiting = new Map<string, { count: number; stage: string | undefined }>();
	#opened: Array<() => void> = [];
	readonly #onChange: () => void;

	/** `onChange` is told whenever a case starts or stops waiting, and on pause/resume. */
	constructor(onChange: () => void = () => {}) {
		this.#onChange = onChange;
	}

	get paused(): boolean {
		return this.#closed;
	}

	/** Tasks (a case of a stage) held at the gate now. */
	get waitingCases(): number {
		return this.#waiting.size;
	}

	/** Tasks held at the gate now, by stage (a request without a stage counts under ''). */
	waitingByStage(): Record<string, number> {
		const by: Record<string, number> = {};
		for (const { stage } of this.#waiting.values()) by[stage ?? ''] = (by[stage ?? ''] ?? 0) + 1;
		return by;
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

	/** A new stage starts (one stage after another): its cases have made no call yet. */
	newStage(): void {
		this.#started.clear();
	}

	/** `client`, with every case's first call held while the gate is closed. */
	wrap(client: ModelClient): ModelClient {
		// The client's own limiters stay in force (forwarded): a call held here holds no slot.
		return forwarding(client, {
			complete: async (request) => {
				const task = taskOf(request);
				if (this.#closed && !this.#started.has(task)) await this.#wait(request);
				this.#started.add(task);
				return client.complete(request);
			}
		});
	}

	async #wait(request: ChatRequest): Promise<void> {
		const id = taskOf(request);
		const held = this.#waiting.get(id);
		this.#waiting.set(id, { count: (held?.count ?? 0) + 1, stage: request.stage });
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
			const held = this.#waiting.get(id);
			const left = (held?.count ?? 1) - 1;
			if (held && left > 0) this.#waiting.set(id, { ...held, count: left });
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

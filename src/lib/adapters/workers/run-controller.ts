/**
 * Runs one run for the Run page as a run session of one run (`openSession`): start, pause,
 * resume, stop, and a snapshot for the screen — the session's own, as it is. Framework-free, so
 * it is tested in Node with the memory store and the simulated provider.
 *
 * Several stages run together, as the CLI's `run` command runs them (`runAll`: per case gen, dcg,
 * Direct and Gold overlap and Interaction starts once that case's gen is saved; the concurrency
 * set counts model calls in flight per endpoint). One stage alone (and the CLI-only pair
 * gen + lca, which `runAll` refuses) runs in turn, as a stage command does. Batch mode runs the
 * session's batch mode (`batch-run.ts`). Both interactive ways write the same records
 * (run-controller.spec.ts compares them byte for byte). Pause, resume and stop are the session's:
 * pausing until the tasks under way have ended, then paused.
 *
 * In the browser it runs in a dedicated module worker (`run.worker.ts`, driven by the page
 * through `run-engine.ts`): a hidden tab's timers are throttled by the browser (the simulated
 * provider's delays, retry backoff), and the engine's bursts of work (reading a resumed run,
 * ordering the files at the end of a stage) were main-thread tasks of several hundred ms at
 * 432 cases. The worker owns the store, the run's Web Lock, the model client and its keys; the
 * page gets throttled snapshots and writes the plans into `localStorage`, which a worker has not.
 */
import type { RunTracker } from '$lib/core/engine/run-progress';
import { modelDirName, type RunKey } from '$lib/core/layout';
import type { CoreText } from '$lib/core/said';
import { openSession, type RunMode, type Session, type SessionSnapshot } from '$lib/core/session';
import { withHeldLock } from '$lib/core/store/held-lock';
import { BatchRunner, batchOptions, runInputs } from './batch-run';
import { earlierCalls } from '$lib/core/control/earlier-calls';
import type { RunControllerOptions, RunRequest } from './run-controller-types';
import type { BatchOutputFile } from './batch-run';
import { planBook, type PlanBook, type PlanStatus } from '$lib/core/control/run-plans';
import {
	idleSnapshot,
	toRunError,
	type PauseSpan,
	type RetryNote,
	type RunSnapshot
} from '$lib/core/control/run-snapshot';

export * from './run-controller-types';
export * from '$lib/core/control/run-snapshot';

const MAX_RETRY_NOTES = 20;

export class RunController {
	#snap: RunSnapshot = idleSnapshot();
	#session: Session | null = null;
	/** Saves the plan at the first progress (see `start`). */
	#announce: (() => void) | null = null;
	/** Whether this start has written its plan: until then the run's saved plan is not ours. */
	#planned = false;
	/** Batch mode's rounds, and a files round's inputs kept for download. */
	readonly #batch = new BatchRunner();
	readonly #options: RunControllerOptions;
	readonly #plans: PlanBook;

	constructor(options: RunControllerOptions) {
		this.#options = options;
		const plans = options.plans;
		this.#plans = plans && 'save' in plans ? plans : planBook(plans);
	}

	get snapshot(): RunSnapshot {
		return this.#snap;
	}

	/** True from start until the run has ended. */
	get active(): boolean {
		return ['starting', 'running', 'pausing', 'paused', 'stopping'].includes(this.#snap.status);
	}

	/**
	 * Runs the request to its end. Never throws: how it ended is in the snapshot. A run that
	 * another tab holds is refused before anything is written.
	 */
	async start(request: RunRequest): Promise<RunSnapshot> {
		if (this.active) throw new Error('a run is already active in this page');
		const stages = [...request.stages];
		this.#set({ ...idleSnapshot(), status: 'starting', stages });
		let run: RunKey;
		let release: () => Promise<void>;
		try {
			run = { runId: request.runId, modelDir: await modelDirName(request.models.evaluated) };
			this.#set({ run });
			// Taken here, before anything is written, so a second tab is refused with nothing changed.
			release = await this.#options.store.lock(run);
			// Before the engine writes: the calls of the run's earlier starts, for its totals.
			this.#set({ earlier: await earlierCalls(this.#options.store, run) });
		} catch (e) {
			return this.#set({ status: 'failed', error: toRunError(e) });
		}
		const plans = this.#plans;
		this.#planned = false;
		// The first progress comes once the engine accepted the saved manifest and records (or wrote
		// a new manifest). Only then is the plan written: a start the engine refuses (a run id of
		// other inputs) leaves the run's own plan, its status and its error as they were. The write
		// fires a `storage` event in the other tabs, whose Run pages list this run as busy.
		this.#announce = () => {
			plans.save({
				runId: run.runId,
				modelDir: run.modelDir,
				stages,
				concurrency: request.concurrency,
				datasetName: request.datasetName,
				status: this.#snap.status === 'running' ? 'running' : 'paused',
				error: null,
				updatedAt: this.#now().toISOString(),
				...(request.batch ? { batch: request.batch } : {})
			});
			this.#planned = true;
		};
		try {
			const store = withHeldLock(this.#options.store, run);
			let tracker: Pick<RunTracker, 'noteRetry'> | null = null;
			let mode: RunMode;
			let client;
			if (request.batch) {
				const endpoints = request.clientSpec?.endpoints;
				if (!endpoints) throw new Error('a batch run needs its client spec');
				mode = await this.#batch.mode(
					{ mode: request.batch, store, run, endpoints, retries: request.settings.retries },
					stages,
					(batch) => this.#set({ batch })
				);
			} else {
				client = await request.makeClient({
					onEvent: (event) => {
						if (event.type !== 'retry') return;
						tracker?.noteRetry(event.stage);
						const { caseNumber, role, reason, attempt, maxAttempts } = event;
						const note: RetryNote = {
							...{ caseNumber, role, reason, attempt, maxAttempts },
							at: this.#now().getTime()
						};
						this.#set({ retries: [...this.#snap.retries, note].slice(-MAX_RETRY_NOTES) });
					}
				});
				// Several stages run together; one alone, and gen with lca, stage by stage.
				const inTurn = stages.length === 1 || (stages.includes('gen') && stages.includes('lca'));
				mode = { kind: 'interactive', stages, inTurn };
			}
			const session = openSession({
				runs: [{ ...runInputs(request, run), store, client, mode }],
				// A client with limiters of its own (the OpenAI client) brings the session's pool.
				...(client?.limiters
					? { limiters: client.limiters }
					: { concurrency: request.concurrency }),
				// As often as the worker posts.
				snapshotIntervalMs: 50,
				onTracker: (_, t) => (tracker = t),
				onSnapshot: (snapshot) => this.#onSession(snapshot)
			});
			this.#session = session;
			this.#set({ status: 'running' });
			const { runs, snapshot } = await session.done;
			const [outcome] = runs;
			if (request.batch) await this.#batch.ended(outcome, this.#options.store, run);
			const base = { session: snapshot, pauses: this.#endPause() };
			if (outcome.status === 'waiting') {
				// Files mode: the round waits for its outputs; uploading them goes on (`importBatch`).
				this.#writeStatus('paused');
				return this.#set({ ...base, status: 'waiting' });
			}
			if (outcome.status === 'done') {
				this.#writeStatus('done');
				const { warnings, warningsSaid, created } = outcome.result!;
				return this.#set({ ...base, status: 'done', warnings, warningsSaid, created });
			}
			throw outcome.error;
		} catch (e) {
			const stopped = this.#snap.status === 'stopping' || this.#snap.status === 'stopped';
			const error = toRunError(e);
			this.#writeStatus(stopped ? 'stopped' : 'failed', error.message, error.said);
			return this.#set({
				status: stopped ? 'stopped' : 'failed',
				error: stopped ? null : error,
				pauses: this.#endPause()
			});
		} finally {
			this.#session = null;
			this.#announce = null;
			await release();
		}
	}

	/**
	 * Files mode: reads the waiting round's output files (all checked before anything is saved;
	 * a refusal names file and line) under the run's lock. Start the request again to go on.
	 */
	async importBatch(request: Omit<RunRequest, 'makeClient'>, files: readonly BatchOutputFile[]) {
		if (this.active) throw new Error('a run is already active in this page');
		const run = { runId: request.runId, modelDir: await modelDirName(request.models.evaluated) };
		const release = await this.#options.store.lock(run);
		try {
			return await this.#batch.importOutputs(
				batchOptions(request, this.#options.store, run),
				files
			);
		} finally {
			await release();
		}
	}

	/** A files round's input file, by name, as offered for download; null when not kept. */
	batchInput(name: string): string | null {
		return this.#batch.inputs.get(name)?.text ?? null;
	}

	/** No new case starts; cases under way finish and are saved (batch mode has nothing to pause). */
	pause(): void {
		if (!this.#session || this.#snap.batch || this.#snap.status !== 'running') return;
		this.#writeStatus('paused');
		this.#session.pause();
	}

	resume(): void {
		if (!this.#session || !['pausing', 'paused'].includes(this.#snap.status)) return;
		this.#writeStatus('running');
		this.#session.resume();
	}

	/**
	 * Aborts calls in flight; finished cases stay saved, unfinished ones are redone on resume.
	 * A files round waiting for its outputs stops waiting: the run is stopped (its plan says so,
	 * so a reload no longer takes it up) and the round stays saved, so starting the run again
	 * offers the same input files, and outputs already made from them still fit.
	 */
	stop(): void {
		if (this.#snap.status === 'waiting') {
			this.#writeStatus('stopped');
			this.#set({ status: 'stopped' });
			return;
		}
		if (!this.#session || this.#snap.status === 'stopping') return;
		this.#set({ status: 'stopping' });
		this.#session.stop();
	}

	/** The session as it stands: its status, and the run's progress once the run has opened. */
	#onSession(session: SessionSnapshot): void {
		// A failing or refused start ends with a snapshot too: only a running one saves the plan.
		if (session.runs[0].run?.status === 'running') {
			this.#announce?.();
			this.#announce = null;
		}
		const ended = ['done', 'failed', 'stopped', 'waiting'].includes(session.status);
		// How the run ended is set once its outcome is known (`start`).
		const status = ended || this.#snap.status === 'stopping' ? this.#snap.status : session.status;
		let pauses = this.#snap.pauses;
		if (status === 'paused' && pauses.at(-1)?.to !== null) {
			pauses = [...pauses, { from: this.#now().getTime(), to: null }];
		} else if (status !== 'paused') pauses = this.#endPause();
		this.#set({ session, status, pauses });
	}

	/** The pauses with the one under way (if any) ended now. */
	#endPause(): PauseSpan[] {
		const pauses = this.#snap.pauses;
		const last = pauses.at(-1);
		if (!last || last.to !== null) return pauses;
		return [...pauses.slice(0, -1), { ...last, to: this.#now().getTime() }];
	}

	/** Writes how the run stands into its plan, once this start owns the plan. */
	#writeStatus(status: PlanStatus, error: string | null = null, errorSaid?: CoreText[]): void {
		if (this.#planned && this.#snap.run) {
			this.#plans.setStatus(this.#snap.run, status, error, this.#now(), errorSaid);
		}
	}

	#set(patch: Partial<RunSnapshot>): RunSnapshot {
		this.#snap = { ...this.#snap, ...patch };
		this.#options.onChange?.(this.#snap);
		return this.#snap;
	}

	#now(): Date {
		return this.#options.now?.() ?? new Date();
	}
}

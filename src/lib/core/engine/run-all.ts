/**
 * `runAll`: every stage of a run in one scheduler. A task is one case of one stage; per case,
 * gen, dcg, ljp-direct and ljp-gold start as soon as there is room, ljp-interaction as soon as
 * that case's interaction is saved. Room is counted in model calls, not cases: each endpoint's
 * limiter (`LimiterPool`) lets `concurrency` calls through at once, and the scheduler keeps just
 * enough tasks going to keep every slot busy (twice the summed limits, plus two). Calls waiting
 * for a slot are served earliest case first, so cases finish and are saved in about dataset
 * order instead of all together at the end.
 *
 * Records, files and manifests are those the stage commands write: the same stage code makes
 * them, each case's records are appended when its task is done, and every stage file is put in
 * dataset order at the end.
 */
import { BatchPending, BatchWaiting } from '../batch/pending';
import type { Case } from '../dataset/types';
import { LimiterPool } from '../model/limiter';
import type { RunKey } from '../layout';
import type { StageFile } from '../record-names';
import { DEFAULT_CONCURRENCY } from '../run-defaults';
import { recordHead, type RecordHead } from '../store/heads';
import { recordIdentity } from '../store/identity';
import { openEngine, type EngineOptions, type RunStagesResult } from './open-engine';
import type { TaskRoom } from '../session/scheduler';
import { callPriority } from './priority';
import { RunTracker } from './run-progress';
import { messageOf, naming, runStopped, withHint, type SavedSummary } from './run-errors';
import { checkRunOptions } from './run-options';
import { prepareLjpInteraction } from './stages/ljp';
import { prepareGen } from './stages/gen';
import type { PreparedStage } from './stages/shared';
import { RUN_ALL_STAGES, type RunSnapshot, type StageName } from './types';

export { RUN_ALL_STAGES };

export interface RunAllOptions extends EngineOptions {
	/**
	 * Stages to run, in any order; they are scheduled together. `lca` (re-judging saved a1
	 * responses) cannot be combined with `gen`, which labels its own. @default RUN_ALL_STAGES
	 */
	stages?: readonly StageName[];
	/**
	 * Model calls in flight per endpoint, or `auto` (from 4 up to 64 while the provider keeps
	 * up). Only for a client without its own `limiters`; one that has them (the OpenAI client)
	 * is limited by those. @default 4
	 */
	concurrency?: number | 'auto';
	/** Told about the whole run as it changes, at most every `snapshotIntervalMs`, and at its end. */
	onSnapshot?: (snapshot: RunSnapshot) => void;
	/** @default 100 */
	snapshotIntervalMs?: number;
	/** Receives the tracker, so a caller can feed it the client's retries (`noteRetry`). */
	onTracker?: (tracker: RunTracker) => void;
	/**
	 * The limiters of a client without its own (`client.limiters` unset), shared with other runs
	 * (a run plan). @default a pool of this run's, from `concurrency`
	 */
	limiters?: LimiterPool;
	/**
	 * Where this run takes room for its tasks, shared with other runs (`SessionScheduler.lane`).
	 * @default a window of its own: 2 + 2 × the summed limits of its endpoints
	 */
	room?: TaskRoom;
	/**
	 * Where this run's calls wait among those of the other runs of its session (lower first),
	 * ahead of their own order (`callPriority`); read at every call (a session with a spending cap
	 * finishes its runs in order). @default none: calls of every run by `callPriority` alone
	 */
	rank?: () => number;
}

/**
 * A step of `rank` in a call's priority: above the whole span of `callPriority` (a chain of at
 * most a few dozen calls × 2^32, plus the case index), below 2^53 for thousands of runs.
 */
const RANK_STEP = 2 ** 38;

interface Task {
	stage: StageName;
	kase: Case;
}

/**
 * Runs `stages` of one run together. Errors as `runStages`: `ModelCallError` when a call fails
 * for good (no new task starts, tasks in flight finish and are saved, the message names the stage
 * and case), `CheckpointError` when saved data does not fit, `UsageError` for invalid options.
 * Every saved record is checked before the first model call.
 */
export async function runAll(options: RunAllOptions): Promise<RunStagesResult> {
	const stages = checkRunOptions(options, 'together');
	const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
	const limiters: LimiterPool =
		options.client.limiters ??
		options.limiters ??
		new LimiterPool(concurrency === 'auto' ? { auto: true } : { max: concurrency });
	const tracker = new RunTracker({
		cases: Math.min(options.limit ?? Infinity, options.dataset.cases.length),
		stages,
		limiters,
		onSnapshot: options.onSnapshot,
		intervalMs: options.snapshotIntervalMs
	});
	options.onTracker?.(tracker);
	const setup = {
		stages,
		// What bounds the calls per endpoint: the number given, or auto's ceiling.
		concurrency: limiters.max,
		counter: (stage: StageName) => tracker.counter(stage),
		gate:
			options.client.limiters || options.batch
				? undefined
				: { limiters, endpoints: options.endpoints },
		priority: options.rank
			? (...call: Parameters<typeof callPriority>) =>
					options.rank!() * RANK_STEP + callPriority(...call)
			: callPriority
	};
	// Prepare-time errors (saved records that do not fit) end the run too.
	const onFailure = (error: unknown) => {
		if (tracker.snapshot().status !== 'running') return;
		tracker.finish(options.signal?.aborted ? 'stopped' : 'failed', messageOf(error));
	};
	return openEngine(
		options,
		setup,
		async (opened) => {
			// Interactions gen saves in this call, for ljp-interaction to score.
			const interactions = new Map<string, RecordHead<'interaction'>>();
			const plans = new Map<StageName, PreparedStage>();
			for (const stage of stages) {
				let plan: PreparedStage;
				if (stage === 'gen') {
					plan = await opened.plan(stage, (ctx, cases) => {
						const save = ctx.save;
						ctx.save = async (file, record) => {
							await save(file, record);
							if (file === 'interaction') {
								interactions.set(recordIdentity(file, record), await recordHead(file, record));
							}
						};
						return prepareGen(ctx, cases);
					});
				} else if (stage === 'ljp-interaction' && stages.includes('gen')) {
					plan = await opened.plan(stage, (ctx, cases) =>
						prepareLjpInteraction(ctx, cases, (kase) =>
							interactions.get(recordIdentity('interaction', kase))
						)
					);
				} else {
					plan = await opened.plan(stage);
				}
				plans.set(stage, plan);
				tracker.resumed(stage, plan.resumed);
			}
			await schedule(stages, plans, opened.selected, limiters, options, tracker, opened);
			return opened.result(stages.map((stage) => opened.report(stage, plans.get(stage)!)));
		},
		onFailure
	);
}

/**
 * How many cases ahead of the other stages gen starts. Gen heads the longest chain (an interaction
 * of up to four rounds, then its LJP); started late, one case's chain runs alone at the end of the
 * run. Bounded, so the cases of an interrupted run are still saved in about dataset order.
 */
const HEAD_START = 32;

/** Where a task starts among the pending ones: by case, gen HEAD_START cases early. */
function startKey({ stage, kase }: Task): number {
	return kase.index + (stage === 'gen' ? 0 : HEAD_START);
}

/** Runs every pending task; resolves when all are saved, else throws the first failure. */
async function schedule(
	stages: readonly StageName[],
	plans: ReadonlyMap<StageName, PreparedStage>,
	selected: readonly Case[],
	limiters: LimiterPool,
	options: RunAllOptions,
	tracker: RunTracker,
	/** Seals a stage once every case of it is saved and its files are in order. */
	opened: { run: RunKey; seal(stage: StageName): Promise<void> }
): Promise<void> {
	const { run } = opened;
	const { signal } = options;
	const room = options.batch
		? openRoom()
		: (options.room ?? ownRoom(Object.values(options.endpoints), limiters));
	const pending = new Map(stages.map((s) => [s, new Set(plans.get(s)!.pending)]));
	const left = new Map(
		selected.map((k) => [k, stages.filter((s) => pending.get(s)!.has(k)).length])
	);
	tracker.casesDone([...left.values()].filter((n) => n === 0).length);
	const main: Task[] = [];
	const blocked = new Set<Case>();
	const interaction = plans.get('ljp-interaction');
	for (const kase of selected) {
		for (const stage of stages) {
			if (!pending.get(stage)!.has(kase)) continue;
			if (stage === 'ljp-interaction' && interaction!.blocked?.(kase)) blocked.add(kase);
			else main.push({ stage, kase });
		}
	}
	// Chain heads first: a case's gen starts HEAD_START cases ahead of the work of its other stages.
	main.sort((a, b) => startKey(a) - startKey(b));
	/** ljp-interaction tasks whose interaction is now saved: they go before any new case. */
	const followUps: Task[] = [];
	let next = 0;
	let inFlight = 0;
	let failure: { error: unknown } | null = null;
	let parked = 0;
	/** A stage whose every case is saved is put in dataset order, whatever else stops. */
	const finalize = (stage: StageName) => {
		const order = plans.get(stage)!.order;
		const done = (async () => {
			for (const [file, ids] of Object.entries(order) as [StageFile, string[]][]) {
				await options.store.finalizeStageFile?.(run, file, ids);
			}
		})();
		// Its failure is the run's once the run has ended (below), not an unhandled rejection now.
		done.catch(() => undefined);
		return done;
	};
	const finalizing: Promise<void>[] = [];

	await new Promise<void>((resolve) => {
		const pump = () => {
			while (failure === null && !signal?.aborted && (followUps.length > 0 || next < main.length)) {
				if (!room.take()) break;
				start(followUps.shift() ?? main[next++]);
			}
			const exhausted = followUps.length === 0 && next >= main.length;
			if (inFlight === 0 && (failure !== null || signal?.aborted || exhausted)) {
				room.close();
				resolve();
			}
		};
		room.wake = pump;
		const start = ({ stage, kase }: Task) => {
			inFlight++;
			tracker.taskStarted(stage);
			plans
				.get(stage)!
				.runCase(kase)
				.then(
					() => {
						const remaining = left.get(kase)! - 1;
						left.set(kase, remaining);
						pending.get(stage)!.delete(kase);
						if (pending.get(stage)!.size === 0) finalizing.push(finalize(stage));
						tracker.taskFinished(stage, 'done', remaining === 0);
						if (stage === 'gen' && blocked.delete(kase)) {
							followUps.push({ stage: 'ljp-interaction', kase });
						}
					},
					(error: unknown) => {
						if (error instanceof BatchPending) {
							parked++;
							tracker.taskFinished(stage, 'stopped', false);
							return;
						}
						tracker.taskFinished(stage, signal?.aborted ? 'stopped' : 'failed', false);
						failure ??= { error: naming(error, stage, kase) };
					}
				)
				.finally(() => {
					inFlight--;
					room.give();
					pump();
				});
		};
		pump();
	});

	// A stage whose every case was saved before the run began is put in order now; the others were
	// as their last case was saved, while the rest of the run went on.
	const complete = stages.filter((stage) => pending.get(stage)!.size === 0);
	for (const stage of complete)
		if (plans.get(stage)!.pending.length === 0) finalizing.push(finalize(stage));
	await Promise.all(finalizing);
	// Then sealed, each with the files it reads in their final order (ljp-interaction reads gen's).
	await Promise.all(complete.map((stage) => opened.seal(stage)));
	const saved = savedSummary(stages, tracker);
	if (signal?.aborted) {
		const error = runStopped(saved);
		tracker.finish('stopped', error.message);
		throw error;
	}
	if (failure !== null) {
		const error = withHint((failure as { error: unknown }).error, saved);
		tracker.finish('failed', error.message);
		throw error;
	}
	if (parked > 0) throw new BatchWaiting(parked);
	tracker.finish('done');
}

/** Batch mode's room: every task at once (its calls wait for a round, not for a connection). */
function openRoom(): TaskRoom {
	return { take: () => true, give: () => {}, close: () => {}, wake: () => {} };
}
/** A run's own room: enough tasks that every slot has a call to send while some tasks do local work. */
function ownRoom(endpoints: readonly string[], limiters: LimiterPool): TaskRoom {
	const distinct = [...new Set(endpoints)];
	const size = () => 2 + 2 * distinct.reduce((sum, e) => sum + limiters.get(e).limit, 0);
	let inFlight = 0;
	return {
		take: () => inFlight < size() && ++inFlight > 0,
		give: () => void inFlight--,
		close: () => {},
		wake: () => {}
	};
}

/** `gen 2 of 3, dcg 3 of 3, …`: what is saved of each stage, for the messages that stop a run. */
function savedSummary(stages: readonly StageName[], tracker: RunTracker): SavedSummary {
	const snap = tracker.snapshot();
	const per = snap.stages.map((s) => `${s.stage} ${s.done}`).join(', ');
	return { done: snap.cases.done, total: snap.cases.total, perStage: per };
}

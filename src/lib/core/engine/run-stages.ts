/**
 * `runStages`: the engine configured to run stages one after another, as the stage commands do.
 * Each stage works on `concurrency` cases at a time (a pool), and reports a `StageProgress`.
 * What every run does around that (manifest, lock, checks, call log, seals) is `openEngine`'s.
 */
import type { Case } from '../dataset/types';
import { UpstreamIncompleteError } from '../errors';
import { coded, type CoreText } from '../said';
import type { StageFile } from '../record-names';
import { DEFAULT_CONCURRENCY } from '../run-defaults';
import type { StageContext } from './context';
import {
	openEngine,
	type EngineOptions,
	type PrepareStage,
	type RunStagesResult,
	type StageReport
} from './open-engine';
import { runPool } from './pool';
import { RunTracker } from './run-progress';
import { messageOf, naming, resumable, stageStopped } from './run-errors';
import { checkRunOptions } from './run-options';
import type { PreparedStage } from './stages/shared';
import { UPSTREAM } from './stage-registry';
import type { RunSnapshot, StageName, StageProgress } from './types';
import { queuedRoom, type TaskRoom } from '../session/scheduler';
import type { LimiterPool } from '../model/limiter';

export { naming } from './run-errors';
export type { RunStagesResult, StageReport } from './open-engine';

export interface RunStagesOptions extends EngineOptions {
	/** Stages to run, in this order. */
	stages: readonly StageName[];
	/** Cases worked on at once; does not change results. @default DEFAULT_CONCURRENCY */
	concurrency?: number;
	/** Told about every change of the running stage. */
	onProgress?: (progress: StageProgress) => void;
	/** Receives the tracker, so a caller can feed it the client's retries (`noteRetry`). */
	onTracker?: (tracker: RunTracker) => void;
	/** Told about the whole run (every stage) as it changes, at most every `snapshotIntervalMs`. */
	onSnapshot?: (snapshot: RunSnapshot) => void;
	/** @default 100 */
	snapshotIntervalMs?: number;
	/** The limiters whose limits the run's snapshots show. @default none */
	limiters?: LimiterPool;
	/** Where each case takes room to start (the session's scheduler: a paused session starts none). */
	room?: TaskRoom;
	/**
	 * How a stage is planned, where not the registry's own (`PREPARE`): a re-judged run
	 * (`rejudge.ts`) copies generation records from its source and makes only the judge calls.
	 */
	prepare?: Partial<Record<StageName, PrepareStage>>;
}

/**
 * Runs `stages` in order. Throws `ModelCallError` when a call fails for good (the stage stops,
 * finished cases stay saved, the message names the case), `CheckpointError` when saved data does
 * not fit this run, `UsageError` for invalid options. Every saved record is checked against this
 * run's inputs before the first model call.
 */
export async function runStages(options: RunStagesOptions): Promise<RunStagesResult> {
	const stages = checkRunOptions(options, 'in-turn');
	const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
	const tracker = new RunTracker({
		cases: Math.min(options.limit ?? Infinity, options.dataset.cases.length),
		stages,
		limiters: options.limiters,
		onSnapshot: options.onSnapshot,
		intervalMs: options.snapshotIntervalMs,
		onStage: options.onProgress
	});
	options.onTracker?.(tracker);
	const setup = { stages, concurrency, counter: (stage: StageName) => tracker.counter(stage) };
	const room = options.room && queuedRoom(options.room, options.signal);
	const ended = (error?: unknown) =>
		tracker.finish(
			error === undefined ? 'done' : options.signal?.aborted ? 'stopped' : 'failed',
			error === undefined ? undefined : messageOf(error)
		);
	return openEngine(
		options,
		setup,
		async (opened) => {
			// Check every saved record before the first call, except files an earlier stage of this
			// call is about to write. A missing upstream stage refuses only the stage that reads it,
			// at its turn: `ljp` without gen still runs ljp-direct and ljp-gold, which do not need it.
			const prepared = new Map<StageName, PreparedStage>();
			for (const [i, stage] of stages.entries()) {
				const upstream = UPSTREAM[stage];
				if (!upstream || !stages.slice(0, i).includes(upstream)) {
					try {
						prepared.set(stage, await opened.plan(stage, options.prepare?.[stage]));
					} catch (error) {
						// Refused again at its turn, after the stages before it ran.
						if (!(error instanceof UpstreamIncompleteError) || i === 0) throw error;
					}
				}
			}
			const reports: StageReport[] = [];
			for (const stage of stages) {
				let plan = prepared.get(stage);
				try {
					plan ??= await opened.plan(stage, options.prepare?.[stage]);
				} catch (error) {
					if (!(error instanceof UpstreamIncompleteError) || reports.length === 0) throw error;
					// Every refusal of a missing upstream is coded (stages/shared.ts `requireComplete`).
					throw new UpstreamIncompleteError([...(error.said ?? []), savedSoFar(reports)]);
				}
				const ctx = opened.contextOf(stage);
				await runStage(ctx, tracker, stage, plan, opened.selected.length, concurrency, {
					signal: options.signal,
					room
				});
				await opened.seal(stage);
				reports.push(opened.report(stage, plan));
			}
			room?.close();
			ended();
			return opened.result(reports);
		},
		(error) => {
			room?.close();
			ended(error);
		}
	);
}

/** What the stages run before a refused one left saved, and how to go on. */
function savedSoFar(reports: readonly StageReport[]): CoreText {
	const names = reports.map((r) => r.stage);
	const total = reports[0].total;
	if (names.length === 1) return coded('upstream_saved_one', { stage: names[0], total });
	return coded('upstream_saved_many', { total }, { stages: [stageList(names)] });
}

/** Two or more stage names as a list: `gen, lca and dcg`. */
function stageList(names: readonly string[]): CoreText {
	const [first, ...rest] = names;
	if (rest.length === 1) return coded('stages_two', { first, last: rest[0] });
	return coded('stages_more', { first }, { rest: [stageList(rest)] });
}

async function runStage(
	ctx: StageContext,
	tracker: RunTracker,
	stage: StageName,
	plan: PreparedStage,
	total: number,
	concurrency: number,
	{ signal, room }: { signal?: AbortSignal; room?: ReturnType<typeof queuedRoom> }
): Promise<void> {
	tracker.startStage(stage);
	tracker.resumed(stage, plan.resumed);
	const done = () => tracker.stageProgress(stage).done;
	try {
		await runPool(
			plan.pending,
			concurrency,
			async (kase: Case) => {
				tracker.taskStarted(stage);
				try {
					await plan.runCase(kase);
					tracker.taskFinished(stage, 'done', false);
				} catch (error) {
					tracker.taskFinished(stage, signal?.aborted ? 'stopped' : 'failed', false);
					throw naming(error, stage, kase);
				}
			},
			signal,
			room
		);
		if (signal?.aborted) throw stageStopped(stage, done(), total);
		for (const [file, order] of Object.entries(plan.order) as [StageFile, string[]][]) {
			await ctx.store.finalizeStageFile?.(ctx.run, file, order);
		}
		tracker.finishStage(stage, 'done');
	} catch (error) {
		const final = signal?.aborted
			? stageStopped(stage, done(), total)
			: resumable(error, done(), total);
		tracker.finishStage(stage, signal?.aborted ? 'stopped' : 'failed', final.message);
		throw final;
	}
}

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
import type { Case } from '../dataset/types';
import { around, CheckpointError, ModelCallError, saidOf, UsageError } from '../errors';
import { coded } from '../said';
import { modelDirName, RUN_ID_PATTERN, stageFilePath, type RunKey } from '../layout';
import { LimiterPool } from '../model/limiter';
import { DEFAULT_PROMPT_PACK } from '../prompts/default-pack';
import type { StageFile } from '../record-names';
import { Concurrency, Settings } from '../run-config';
import { DEFAULT_CONCURRENCY, DEFAULT_SETTINGS, SETTING_LIMITS } from '../run-defaults';
import { recordHead, type RecordHead } from '../store/heads';
import { recordIdentity } from '../store/identity';
import { openRun } from '../store/resume';
import { isCallLog } from '../calls/types';
import { createContext, newCallSession, type StageContext } from './context';
import { buildManifest } from './manifest';
import { callPriority } from './priority';
import { RunTracker } from './run-progress';
import { allSealed, casesToPrepare, isSealed, seal, sealedPlan, sealKey } from './seal';
import {
	naming,
	releaseKeepingFailure,
	type RunStagesOptions,
	type RunStagesResult,
	type StageReport
} from './run-stages';
import { prepareDcg } from './stages/dcg';
import { prepareGen, prepareLca } from './stages/gen';
import { prepareLjpDirect, prepareLjpGold, prepareLjpInteraction } from './stages/ljp';
import type { PreparedStage } from './stages/shared';
import {
	RUN_ALL_STAGES,
	STAGE_NAMES,
	STAGE_OUTPUTS,
	type RunSnapshot,
	type StageName
} from './types';

export { RUN_ALL_STAGES };

export interface RunAllOptions extends Omit<
	RunStagesOptions,
	'stages' | 'concurrency' | 'onProgress' | 'progress'
> {
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
}

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
	const stages = checkRunAllOptions(options);
	const settings = options.settings ?? DEFAULT_SETTINGS;
	const pack = options.pack ?? DEFAULT_PROMPT_PACK;
	let selected = options.dataset.cases.slice(0, options.limit ?? options.dataset.cases.length);
	const run: RunKey = {
		runId: options.runId,
		modelDir: await modelDirName(options.models.evaluated)
	};
	const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
	const limiters: LimiterPool =
		options.client.limiters ??
		(concurrency === 'auto'
			? new LimiterPool({ auto: true })
			: new LimiterPool({ max: concurrency }));
	const manifest = await buildManifest({
		runId: run.runId,
		modelDir: run.modelDir,
		dataset: options.dataset,
		selected,
		pack,
		models: options.models,
		endpoints: options.endpoints,
		settings,
		// What bounds the calls per endpoint: the number given, or auto's ceiling.
		concurrency: limiters.max,
		simulated: options.client.simulated,
		tool: options.tool
	});
	const tracker = new RunTracker({
		cases: selected.length,
		stages,
		limiters,
		onSnapshot: options.onSnapshot,
		intervalMs: options.snapshotIntervalMs
	});
	options.onTracker?.(tracker);
	const keys = options.keys ?? [];
	const release = await options.store.lock(run);
	let failure: unknown = null;
	try {
		return await prepareAndRun();
	} catch (error) {
		failure = error;
		// Prepare-time errors (saved records that do not fit) end the run too.
		if (tracker.snapshot().status === 'running') {
			tracker.finish(
				options.signal?.aborted ? 'aborted' : 'failed',
				error instanceof Error ? error.message : String(error)
			);
		}
		throw error;
	} finally {
		await releaseKeepingFailure(release, failure);
	}

	async function prepareAndRun(): Promise<RunStagesResult> {
		const opened = await openRun(options.store, manifest, { keys });
		const hashes = new Map<string, Promise<string>>();
		const warnings = [...opened.warnings];
		// Every call in calls.jsonl as the stage commands log it, one session for the whole run.
		const callLog =
			options.callLog === undefined
				? isCallLog(options.store)
					? options.store
					: null
				: options.callLog;
		const callSession = newCallSession();
		const contextOf = (stage: StageName): StageContext =>
			createContext({
				callLog,
				callSession,
				onCallLogError: (message) => warnings.push(message),
				run,
				store: options.store,
				client: options.client,
				pack,
				settings,
				models: options.models,
				progress: tracker.counter(stage),
				keys,
				signal: options.signal,
				hashes,
				gate: options.client.limiters ? undefined : { limiters, endpoints: options.endpoints },
				priority: callPriority
			}).forStage(stage);
		// Interactions gen saves in this call, for ljp-interaction to score.
		const interactions = new Map<string, RecordHead<'interaction'>>();
		const plans = new Map<StageName, PreparedStage>();
		// A stage sealed by an earlier run and unchanged since is done: nothing to read (seal.ts).
		const key = await sealKey(opened.manifest);
		if (options.loadDataset) {
			const done = await allSealed(options.store, run, stages, key);
			selected = await casesToPrepare(options.dataset, options.loadDataset, selected, done);
		}
		const sealed = new Set<StageName>();
		for (const stage of stages) {
			const ctx = contextOf(stage);
			let plan: PreparedStage;
			if (await isSealed(options.store, run, stage, key)) {
				sealed.add(stage);
				plan = sealedPlan(stage, selected.length);
			} else if (stage === 'gen') {
				const save = ctx.save;
				ctx.save = async (file, record) => {
					await save(file, record);
					if (file === 'interaction') {
						interactions.set(recordIdentity(file, record), await recordHead(file, record));
					}
				};
				plan = await prepareGen(ctx, selected);
			} else if (stage === 'ljp-interaction' && stages.includes('gen')) {
				plan = await prepareLjpInteraction(ctx, selected, (kase) =>
					interactions.get(recordIdentity('interaction', kase))
				);
			} else {
				plan = await PREPARE[stage](ctx, selected);
			}
			plans.set(stage, plan);
			tracker.resumed(stage, plan.resumed);
		}
		await schedule(run, stages, plans, selected, limiters, options, tracker, (stage) =>
			sealed.has(stage) ? Promise.resolve() : seal(options.store, run, stage, key)
		);
		return {
			run,
			manifest: opened.manifest,
			created: opened.created,
			warnings,
			stages: stages.map((stage): StageReport => ({
				stage,
				total: selected.length,
				resumed: plans.get(stage)!.resumed,
				generated: plans.get(stage)!.pending.length,
				files: STAGE_OUTPUTS[stage].map((f) => stageFilePath(run, f))
			}))
		};
	}
}

const PREPARE: Record<
	Exclude<StageName, 'gen'>,
	(ctx: StageContext, cases: readonly Case[]) => Promise<PreparedStage>
> = {
	lca: prepareLca,
	dcg: prepareDcg,
	'ljp-direct': prepareLjpDirect,
	'ljp-gold': prepareLjpGold,
	'ljp-interaction': prepareLjpInteraction
};

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
	run: RunKey,
	stages: readonly StageName[],
	plans: ReadonlyMap<StageName, PreparedStage>,
	selected: readonly Case[],
	limiters: LimiterPool,
	options: RunAllOptions,
	tracker: RunTracker,
	/** Seals a stage once every case of it is saved and its files are in order. */
	sealStage: (stage: StageName) => Promise<void>
): Promise<void> {
	const { signal } = options;
	const endpoints = [...new Set(Object.values(options.endpoints))];
	// Enough tasks that every slot has a call to send while some tasks do local work.
	const window = () => 2 + 2 * endpoints.reduce((sum, e) => sum + limiters.get(e).limit, 0);
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

	await new Promise<void>((resolve) => {
		const pump = () => {
			while (failure === null && !signal?.aborted && inFlight < window()) {
				const task = followUps.shift() ?? main[next++];
				if (!task) break;
				start(task);
			}
			const exhausted = followUps.length === 0 && next >= main.length;
			if (inFlight === 0 && (failure !== null || signal?.aborted || exhausted)) resolve();
		};
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
						tracker.taskFinished(stage, 'done', remaining === 0);
						if (stage === 'gen' && blocked.delete(kase)) {
							followUps.push({ stage: 'ljp-interaction', kase });
						}
					},
					(error: unknown) => {
						tracker.taskFinished(stage, signal?.aborted ? 'stopped' : 'failed', false);
						failure ??= { error: naming(error, stage, kase) };
					}
				)
				.finally(() => {
					inFlight--;
					pump();
				});
		};
		pump();
	});

	// A stage whose every case is saved is put in dataset order, whatever else stopped.
	const complete = stages.filter((stage) => pending.get(stage)!.size === 0);
	for (const stage of complete) {
		const order = plans.get(stage)!.order;
		for (const [file, ids] of Object.entries(order) as [StageFile, string[]][]) {
			await options.store.finalizeStageFile?.(run, file, ids);
		}
	}
	// Then sealed, each with the files it reads in their final order (ljp-interaction reads gen's).
	for (const stage of complete) await sealStage(stage);
	const saved = savedSummary(stages, tracker);
	if (signal?.aborted) {
		const error = new ModelCallError(
			`run stopped on request; ${saved.text}. Run the same command again to resume.`,
			{ kind: 'aborted', said: [coded('run_stopped_on_request', saved.params)] }
		);
		tracker.finish('aborted', error.message);
		throw error;
	}
	if (failure !== null) {
		const error = withHint((failure as { error: unknown }).error, saved);
		tracker.finish('failed', error.message);
		throw error;
	}
	tracker.finish('done');
}

/** `gen 2 of 3, dcg 3 of 3, …`: what is saved of each stage, for the messages that stop a run. */
function savedSummary(
	stages: readonly StageName[],
	tracker: RunTracker
): { text: string; params: { done: number; total: number; perStage: string } } {
	const snap = tracker.snapshot();
	const per = snap.stages.map((s) => `${s.stage} ${s.done}`).join(', ');
	return {
		text: `${snap.cases.done} of ${snap.cases.total} cases are saved for every stage (cases saved per stage: ${per})`,
		params: { done: snap.cases.done, total: snap.cases.total, perStage: per }
	};
}

/** The error that stopped the run, telling what is saved and how to go on. */
function withHint(error: unknown, saved: ReturnType<typeof savedSummary>): Error {
	const hint = `\n${saved.text}; fix the cause and run the same command again to resume.`;
	const said = around(saidOf(error), null, coded('run_saved_stages', saved.params));
	if (error instanceof ModelCallError)
		return new ModelCallError(error.message + hint, { ...error.details, said });
	if (error instanceof UsageError) return new UsageError(error.message + hint, said);
	if (error instanceof CheckpointError) return new CheckpointError(error.message + hint, said);
	return new Error((error instanceof Error ? error.message : String(error)) + hint);
}

/** Checks the options and returns the stages in the order they are scheduled. */
function checkRunAllOptions(options: RunAllOptions): StageName[] {
	const named = options.stages ?? RUN_ALL_STAGES;
	if (named.length === 0) throw new UsageError('no stage to run');
	for (const stage of named) {
		if (!STAGE_NAMES.includes(stage)) {
			throw new UsageError(`unknown stage "${stage}"; the stages are ${STAGE_NAMES.join(', ')}`);
		}
	}
	if (named.includes('gen') && named.includes('lca')) {
		throw new UsageError(
			'gen labels every a1 response it generates; lca only re-judges saved ones. Name one of the two.'
		);
	}
	if (!RUN_ID_PATTERN.test(options.runId)) {
		throw new UsageError(
			`run id "${options.runId}" must start with a letter or digit and hold only letters, digits, ".", "_" or "-" (at most 64)`
		);
	}
	const checked = Settings.safeParse(options.settings ?? DEFAULT_SETTINGS);
	if (!checked.success) {
		const issue = checked.error.issues[0];
		throw new UsageError(`settings.${issue.path.join('.')}: ${issue.message}`);
	}
	// "auto" is no number: only a number is held to the shared range.
	const c = options.concurrency;
	if (c !== undefined && c !== 'auto' && !Concurrency.safeParse(c).success) {
		const { min, max } = SETTING_LIMITS.concurrency;
		throw new UsageError(
			`concurrency must be a whole number from ${min} to ${max} or "auto", got ${c}`
		);
	}
	if (options.limit !== undefined && (!Number.isInteger(options.limit) || options.limit < 1)) {
		throw new UsageError(`limit must be a whole number of at least 1, got ${options.limit}`);
	}
	if (!options.models.evaluated.trim()) throw new UsageError('no evaluated model given');
	// The order of the scheduler, whatever order they were named in.
	return STAGE_NAMES.filter((s) => named.includes(s));
}

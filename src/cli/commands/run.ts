/**
 * `run` (an addition of this workbench, PROTOCOL.md §8): every stage of a run in one process
 * with one scheduler (`runAll`), so a case's gen, dcg, Direct and Gold overlap and Interaction
 * follows gen case by case. It writes exactly the files the stage commands write, and resumes
 * whatever mix of them is saved. `--concurrency` counts model calls in flight per endpoint;
 * `auto` starts at 4 and grows while the provider keeps up.
 */
import { RUN_ALL_STAGES, STAGE_NAMES, stagesNamed, type StageName } from '../../lib/core/protocol';
import { isPlanSpendStore } from '../../lib/core/session';
import type { Role } from '../../lib/core/records';
import { runOne } from '../session/one-run';
import { UsageError } from '../../lib/core/errors';
import { escapeControl } from '../../lib/core/text/escape-control';
import { AUTO_INITIAL_CONCURRENCY, AUTO_MAX_CONCURRENCY } from '../../lib/core/model/limiter';
import { DEFAULT_CONCURRENCY, SETTING_LIMITS } from '../../lib/core/run-config';
import { GENERATION_OPTIONS_HELP, generationOptionsFrom, parseFlags } from '../args';
import {
	BATCH_HELP,
	BATCH_OPTIONS,
	batchFolder,
	batchLimits,
	batchMode,
	EXIT_WAITING
} from '../batch/batch-flags';
import { runPlanInBatch } from '../batch/plan-batch-cli';
import { runBatchCli } from '../batch/run-batch';
import { isPlan } from '../plan/plan-args';
import { runPlanCommand } from '../plan/plan-command';
import { createRunProgressPrinter } from '../progress';
import { EXIT_CAPPED, SPEND_HELP, SPEND_OPTIONS, spendOptions } from '../session/spend-flags';
import type { CliIo, CommandHandler } from '../types';
import {
	engineInputs,
	loggedLimiters,
	OPTIONS as STAGE_OPTIONS,
	readStageInputs,
	SIMULATED_HELP,
	stageArgsFrom,
	stageClient,
	summaryText
} from './stage';

/** The flags of a run or a run plan, batch mode included: `run`'s, `batch import`'s and `batch status`'s. */
export const RUN_OPTIONS = {
	...STAGE_OPTIONS,
	stages: { type: 'string' },
	// Repeated, or with --repetitions or --plan: a run plan (`../plan/`).
	model: { type: 'string', multiple: true },
	repetitions: { type: 'string' },
	plan: { type: 'string' },
	...BATCH_OPTIONS
} as const;

const OPTIONS = { ...RUN_OPTIONS, ...SPEND_OPTIONS } as const;

/** Parses `--stages gen,dcg,…` (any order, `ljp` for the three LJP stages). */
export function parseStages(raw: string | undefined): StageName[] {
	if (raw === undefined) return [...RUN_ALL_STAGES];
	const names = raw
		.split(',')
		.map((s) => s.trim())
		.filter(Boolean);
	if (names.length === 0) throw new UsageError('--stages needs at least one stage');
	const stages = new Set<StageName>();
	for (const name of names) {
		// `ljp` stands for the three LJP stages, as the command of that name does.
		const known = stagesNamed(name);
		if (!known) {
			throw new UsageError(
				`--stages: unknown stage ${escapeControl(JSON.stringify(name.slice(0, 40)))}; the stages are ` +
					`${STAGE_NAMES.join(', ')} (and ljp for the three LJP stages)`
			);
		}
		for (const stage of known) stages.add(stage);
	}
	return [...stages];
}

/** The shared options, less the stage commands' `--concurrency` (cases), which run counts in calls. */
const SHARED_HELP = GENERATION_OPTIONS_HELP.trimEnd()
	.split('\n')
	.filter((line) => !line.trimStart().startsWith('--concurrency'))
	.join('\n');

const RUN_HELP = `Usage: npm run lexpilot -- run --run-id NAME --dataset FILE --model ID [options]

Runs every stage (gen, dcg, ljp-direct, ljp-gold, ljp-interaction) in one process: per case,
gen, dcg, Direct and Gold start as soon as there is room, and Interaction as soon as that
case's gen is saved. Writes exactly the files the stage commands write and resumes whatever
is saved (any mix of finished and unfinished stages). The stage commands remain.

  --stages LIST            comma-separated stages to run [${RUN_ALL_STAGES.join(',')}];
                           ljp stands for the three LJP stages; lca (re-judge saved a1
                           responses) cannot be combined with gen, which labels its own
  --concurrency N|auto     model calls in flight per endpoint, ${SETTING_LIMITS.concurrency.min}-${SETTING_LIMITS.concurrency.max} (each role's base URL
                           has its own limit, halved on 429s) [${DEFAULT_CONCURRENCY}]; auto starts at
                           ${AUTO_INITIAL_CONCURRENCY} and grows while the provider keeps up (no 429, latency not
                           up by more than half), up to ${AUTO_MAX_CONCURRENCY}

${SHARED_HELP}
${SIMULATED_HELP}

Run plans (several models × repetitions, one scheduler; see docs/CLI.md "Run plans"):
  --model ID               repeat for several evaluated models (--model A --model B)
  --repetitions R          ${SETTING_LIMITS.repetitions.min}-${SETTING_LIMITS.repetitions.max} runs per model; run ids are the --run-id
                           prefix and 1..R (--run-id run → run1 … runR)
  --plan FILE              plan JSON: models (each optionally with base_url and
                           api_key_env, the variable holding its key; never a key),
                           user, judge, run_id, repetitions; flags beat the file
  Calls in flight are counted per endpoint across every run of the plan. Exit 0 only
  when every run completed; a run that stops leaves the others going, and the summary
  says which stopped and why. The same command again resumes every run.
  With --batch, every run of the plan advances its own rounds at once (its own
  endpoints and keys; files mode: its own folder under the batch folder); one line
  per change of a round, prefixed with the run, then the plan's summary. Files mode
  prints every input file's vllm run-batch and ONE batch import for the whole plan.

${BATCH_HELP}

${SPEND_HELP}

Exit codes: 0 every stage (of every run of a plan) completed; ${EXIT_WAITING} batch files mode: a round is
written and waits for its outputs (a plan: at least one run waits and none failed); 1 the run
(a run of the plan) stopped on an API or judge failure (finished cases are kept: run the same
command again to resume); 2 bad usage, an invalid dataset, an output root that cannot be
written, or saved records / a manifest that do not fit these options; ${EXIT_CAPPED} the spending cap
paused the run (the plan): finished cases are kept, a higher --spend-cap goes on.
`;

export const runCommandHandler: CommandHandler = {
	summary: 'every stage in one process (gen, dcg, ljp-*), resuming what is saved',
	usage: RUN_HELP,
	run: runEverything
};

async function runEverything(args: string[], io: CliIo): Promise<number> {
	const { values: all } = parseFlags(args, OPTIONS);
	const {
		model: models = [],
		repetitions,
		plan,
		batch,
		'batch-dir': batchDir,
		'batch-max-tokens': batchMaxTokens,
		prices,
		'spend-cap': spendCap,
		...values
	} = all;
	const spendFlags = { prices, 'spend-cap': spendCap };
	const mode = batchMode(batch);
	const limits = batchLimits(batchMaxTokens);
	const stages = parseStages(values.stages);
	// "auto" is no number: it skips the shared flag's range check (1-64), which a number gets.
	const auto = values.concurrency?.trim() === 'auto';
	const flags = { ...values, concurrency: auto ? undefined : values.concurrency };
	const resolveOptions: typeof generationOptionsFrom = (f, env) =>
		withAutoHint(() => generationOptionsFrom(f, env));
	const planFlags = { models, repetitions, plan };
	if (isPlan(planFlags)) {
		if (mode) return runPlanInBatch(flags, planFlags, { stages, mode, batchDir, limits, args }, io);
		return runPlanCommand(flags, planFlags, stages, auto, io, resolveOptions, spendFlags);
	}
	const parsed = stageArgsFrom({ ...flags, model: models[0] }, io, resolveOptions);
	const { options, simulated, keys } = parsed;
	const inputs = await readStageInputs(parsed, io);
	if (mode) {
		const folder = batchFolder(batchDir, options.outputRoot, io.cwd);
		return runBatchCli({ parsed, inputs, stages, mode, folder, limits, args }, io);
	}

	const printer = createRunProgressPrinter(io);
	let tracker: { noteRetry(): void } | null = null;
	const limiters = loggedLimiters(auto, options.concurrency, keys, io);
	const client = stageClient(parsed, inputs.pack, io, { limiters }, () => tracker?.noteRetry());
	const engine = engineInputs(parsed, inputs, client, io);
	const role = (r: Role) => ({ model: engine.models[r], endpoint: engine.endpoints[r] });
	const [user, judge] = [role('user'), role('judge')];
	const spec = { runId: options.runId, models: [{ evaluated: role('evaluated') }], user, judge };
	const spend = isPlanSpendStore(engine.store)
		? await spendOptions(spendFlags, spec, engine.store, io.cwd)
		: undefined;
	const end = await runOne(
		{ ...engine, mode: { kind: 'interactive', stages } },
		{
			limiters,
			concurrency: auto ? 'auto' : options.concurrency,
			signal: io.signal,
			spend,
			onSnapshot: (s) => s.runs[0].run && printer.onSnapshot(s.runs[0].run),
			onTracker: (_, t) => (tracker = t)
		},
		io,
		printer
	);
	if (end.capped) return end.code;
	io.stdout(summaryText(end.result, options.outputRoot, simulated));
	return 0;
}

/** Parses the shared options; a refused `--concurrency` also says that `auto` is allowed. */
function withAutoHint<T>(parse: () => T): T {
	try {
		return parse();
	} catch (e) {
		if (e instanceof UsageError && e.message.startsWith('--concurrency ')) {
			throw new UsageError(`${e.message} (or auto)`);
		}
		throw e;
	}
}

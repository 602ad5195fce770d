/**
 * A run plan in batch mode from the CLI (`run --model A --model B --repetitions R --batch …` or
 * `--plan FILE`; `batch import` with the plan's flags, which goes on after importing): every run
 * of the plan advances its own rounds at once (a session of batch runs), each with its own sender (its
 * endpoints and keys; files mode: its own folder under the batch folder). Prints one line per
 * change of a round, prefixed with the run, then the plan's summary (`plan-batch-summary.ts`).
 */
import type { BatchFileLimits } from '../../lib/core/batch/limits';
import type { BatchSendMode } from '../../lib/core/batch/store';
import type { StageName } from '../../lib/core/engine/types';
import { runName } from '../../lib/core/layout';
import { openSession } from '../../lib/core/session';
import { escapeControl } from '../../lib/core/text/escape-control';
import { generationOptionsFrom } from '../args';
import { readPlanInputs, type StageValues } from '../commands/stage';
import { planArgsFrom, type PlanFlags } from '../plan/plan-args';
import type { CliIo } from '../types';
import { batchFolder } from './batch-flags';
import { planExit, planBatchSummary } from './plan-batch-summary';
import { batchRunOptions, roundPrinter, runSender, STOPPED_TEXT, type BatchCli } from './run-batch';

/** What every run of a batch plan shares: the stages, the mode, `--batch-dir`, the command. */
export interface PlanBatchFlags {
	stages: readonly StageName[];
	mode: BatchSendMode;
	/** `--batch-dir` as typed. */
	batchDir: string | undefined;
	/** Input-file limits (`--batch-max-tokens`), the same for every run. */
	limits?: BatchFileLimits;
	/** The command's arguments, for the one that continues the plan. */
	args: readonly string[];
}

/** Each run of the plan as a batch run; the dataset is read (and its warnings said) once. */
export async function planBatchClis(
	values: StageValues,
	flags: PlanFlags,
	shared: PlanBatchFlags,
	io: CliIo
): Promise<BatchCli[]> {
	const plan = await planArgsFrom(values, flags, io, generationOptionsFrom);
	const { batchDir, ...common } = shared;
	const folder = batchFolder(batchDir, plan.runs[0].args.options.outputRoot, io.cwd);
	const inputs = await readPlanInputs(plan.runs, io);
	return plan.runs.map((run, i) => ({ ...common, folder, parsed: run.args, inputs: inputs[i] }));
}

/** `run --batch …` with a plan: every run of it in batch mode. */
export async function runPlanInBatch(
	values: StageValues,
	flags: PlanFlags,
	shared: PlanBatchFlags,
	io: CliIo
): Promise<number> {
	return runPlanBatchCli(await planBatchClis(values, flags, shared, io), io);
}

/** `run1 model-a`: how a run of the plan is named on the terminal. */
export const planRunName = (cli: BatchCli) =>
	escapeControl(runName(cli.parsed.options.runId, cli.parsed.models.evaluated, ' '));

export async function runPlanBatchCli(clis: readonly BatchCli[], io: CliIo): Promise<number> {
	const runs = await Promise.all(
		clis.map(async (cli) => {
			const options = await batchRunOptions(cli, io);
			return { cli, options, ...(await runSender(cli, options, io)) };
		})
	);
	const { runs: outcomes } = await openSession({
		signal: io.signal,
		runs: runs.map(({ cli, options, sender }) => ({
			...options,
			repetition: 1,
			mode: {
				kind: 'batch',
				stages: options.stages,
				sender,
				onRound: roundPrinter(io, `${planRunName(cli)}: `)
			}
		}))
	}).done;
	const rows = outcomes.map((outcome, i) => ({
		...outcome,
		label: planRunName(runs[i].cli),
		folder: runs[i].folder
	}));
	for (const row of rows) {
		for (const w of row.result?.warnings ?? []) {
			io.stderr(`warning: ${row.label}: ${escapeControl(w)}\n`);
		}
	}
	const [first] = clis;
	const { outputRoot } = first.parsed.options;
	io.stdout(planBatchSummary(rows, outputRoot, first.mode, first.args, io.signal.aborted));
	if (io.signal.aborted) {
		io.stderr(STOPPED_TEXT);
		return 1;
	}
	return planExit(outcomes);
}

/**
 * `run` with several models, `--repetitions` or `--plan`: every run of the plan in one process,
 * one session (`openSession`) under one scheduler. Each run writes what `run` writes for it alone; the dataset is
 * read once for all. Exit 0 only when every run completed; a run that stops leaves the others
 * going, and the summary has one line per run saying which stopped and why.
 */
import type { StageName } from '../../lib/core/engine/types';
import {
	isPlanSpendStore,
	openSession,
	type RunOutcome,
	type Session,
	type SessionRun,
	type SessionSnapshot
} from '../../lib/core/session';
import { runName } from '../../lib/core/layout';
import { escapeControl } from '../../lib/core/text/escape-control';
import type { generationOptionsFrom } from '../args';
import {
	engineInputs,
	loggedLimiters,
	readPlanInputs,
	stageClient,
	type StageValues
} from '../commands/stage';
import type { CliIo } from '../types';
import {
	cappedText,
	EXIT_CAPPED,
	spendOptions,
	stopWhenCapped,
	type SpendFlags
} from '../session/spend-flags';
import { planExit, stoppedLines } from '../batch/plan-batch-summary';
import { planArgsFrom, type PlanFlags } from './plan-args';
import { createPlanPrinter, rowStatus, stagesDone } from './plan-printer';

export async function runPlanCommand(
	values: StageValues,
	flags: PlanFlags,
	stages: readonly StageName[],
	auto: boolean,
	io: CliIo,
	resolveOptions: typeof generationOptionsFrom,
	spendFlags: SpendFlags = {}
): Promise<number> {
	const plan = await planArgsFrom(values, flags, io, resolveOptions);
	const first = plan.runs[0].args;
	const { options } = first;
	const limiters = loggedLimiters(auto, options.concurrency, first.keys, io);
	const trackers: ({ noteRetry(): void } | undefined)[] = [];
	const inputs = await readPlanInputs(plan.runs, io);
	const runs: SessionRun[] = plan.runs.map((run, index) => {
		const client = stageClient(run.args, inputs[index].pack, io, { limiters }, () =>
			trackers[index]?.noteRetry()
		);
		return {
			...engineInputs(run.args, inputs[index], client, io),
			mode: { kind: 'interactive', stages },
			repetition: run.repetition
		};
	});
	const store = runs[0].store;
	const spend = isPlanSpendStore(store)
		? await spendOptions(spendFlags, plan.spec, store, io.cwd)
		: undefined;
	const printer = createPlanPrinter(io);
	try {
		let session: Session | null = null;
		session = openSession({
			runs,
			limiters,
			concurrency: auto ? 'auto' : options.concurrency,
			signal: io.signal,
			spend,
			onSnapshot: stopWhenCapped(() => session?.stop(), printer.onSnapshot),
			onTracker: (index, tracker) => (trackers[index] = tracker)
		});
		const result = await session.done;
		printer.end();
		for (const outcome of result.runs) {
			for (const w of outcome.result?.warnings ?? []) {
				io.stderr(`warning: ${escapeControl(outcome.runId)}: ${escapeControl(w)}\n`);
			}
		}
		io.stdout(planSummary(result.runs, options.outputRoot, first.simulated, result.snapshot));
		if (result.snapshot.spend?.capped && !result.complete) {
			io.stderr(cappedText(result.snapshot));
			return EXIT_CAPPED;
		}
		return planExit(result.runs);
	} finally {
		printer.end();
	}
}

/**
 * One line per run: completed (started or resumed), stopped and why, or paused at the spending
 * cap (the CLI stops a plan its cap paused; the rows say paused, since a higher cap goes on).
 */
export function planSummary(
	runs: readonly RunOutcome[],
	outputRoot: string,
	simulated: boolean,
	snapshot: SessionSnapshot
): string {
	const done = runs.filter((r) => r.status === 'done').length;
	const lines = [
		`Plan of ${runs.length} run${runs.length === 1 ? '' : 's'}${simulated ? ' (simulated provider, offline)' : ''} ` +
			`under ${escapeControl(outputRoot)}: ${done} of ${runs.length} completed`
	];
	for (const [index, run] of runs.entries()) {
		const name = `  ${escapeControl(runName(run.runId, run.model, '  '))}`;
		if (run.status === 'done') {
			const cases = run.result!.stages[0]?.total ?? 0;
			lines.push(
				`${name}: completed, ${cases} cases (${run.result!.created ? 'started' : 'resumed'})`
			);
		} else if (run.status === 'stopped' && snapshot.spend?.capped) {
			const row = snapshot.runs[index];
			const stages = stagesDone(row);
			lines.push(`${name}: ${rowStatus(row, snapshot)}${stages ? `; ${stages}` : ''}`);
		} else {
			lines.push(...stoppedLines(name, run.status, run.error));
		}
	}
	return `${lines.join('\n')}\n`;
}

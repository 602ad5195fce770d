/**
 * `lexpilot rejudge` (PROTOCOL.md §8): re-judges a finished run with another judge model,
 * endpoint or prompt pack into a new run id (`--as`), sharing the source's generation records
 * (`rejudgeRun`, `core/engine/rejudge/`). Exit codes as the generation commands.
 */
import { LimiterPool } from '../../lib/core/model/limiter';
import { UsageError } from '../../lib/core/errors';
import { modelDirName, runIdProblem } from '../../lib/core/layout';
import { checkBaseUrl, publicBaseUrl } from '../../lib/core/model/base-url';
import { SIMULATED_ENDPOINT } from '../../lib/core/run-config';
import { escapeControl } from '../../lib/core/text/escape-control';
import { GENERATION_OPTIONS_HELP, parseFlags } from '../args';
import { createProgressPrinter } from '../progress';
import { runOne } from '../session/one-run';
import type { CliIo, CommandHandler } from '../types';
import {
	engineInputs,
	EXIT_CODES,
	OPTIONS,
	readStageInputs,
	SIMULATED_HELP,
	stageArgsFrom,
	stageClient,
	summaryText
} from './stage';

const REJUDGE_OPTIONS = {
	...OPTIONS,
	as: { type: 'string' },
	'judge-base-url': { type: 'string' }
} as const;

/** The new run id: the same rule as --run-id. */
function newRunId(value: string | undefined): string {
	if (value === undefined || value.trim() === '') {
		throw new UsageError('no new run id: pass --as NAME, e.g. --as run1-j2 (the re-judged run)');
	}
	if (runIdProblem(value) !== null) {
		throw new UsageError(
			`--as "${escapeControl(value)}" cannot be used as a run id: use letters, digits, ".", "_" and "-", ` +
				'starting with a letter or digit, at most 64 characters'
		);
	}
	return value;
}

async function run(args: string[], io: CliIo): Promise<number> {
	const { values } = parseFlags(args, REJUDGE_OPTIONS);
	const parsed = stageArgsFrom(values, io);
	const { options } = parsed;
	const as = newRunId(values.as);
	const judgeUrl = values['judge-base-url'];
	if (judgeUrl !== undefined) {
		const checked = checkBaseUrl(judgeUrl);
		if (!checked.ok) throw new UsageError(`--judge-base-url ${checked.problem}.`);
		options.roles.judge.baseURL = checked.url;
	}
	const endpoint = parsed.simulated
		? SIMULATED_ENDPOINT
		: publicBaseUrl(options.roles.judge.baseURL, parsed.keys);
	// Re-judging reads every case: a dataset seal only spares the parse of the warnings.
	const inputs = await readStageInputs(parsed, io);
	const dataset = (await inputs.loadDataset?.()) ?? inputs.dataset;
	const { pack } = inputs;
	const printer = createProgressPrinter(io);
	const limiters = new LimiterPool({ max: options.concurrency });
	let tracker: { noteRetry(): void } | null = null;
	const client = stageClient(parsed, pack, io, { limiters }, () => tracker?.noteRetry());
	// Only the settings typed change the source's: the rest made its generation records.
	const given = (flag: keyof typeof values) => values[flag] !== undefined;
	const { timeout_s, retries, judge_temperature } = options.settings;
	const source = { runId: options.runId, modelDir: await modelDirName(parsed.models.evaluated) };
	const end = await runOne(
		{
			// The row's models; the re-judged run takes the source's (its judge: `judge` below), as
			// it takes the source's selected cases and settings.
			...engineInputs(parsed, { dataset, pack }, client, io),
			runId: as,
			mode: {
				kind: 'rejudge',
				source,
				judge: { model: parsed.models.judge, endpoint },
				settings: {
					...(given('timeout') ? { timeout_s } : {}),
					...(given('retries') ? { retries } : {}),
					...(given('judge-temperature') ? { judge_temperature } : {})
				},
				onStage: printer.onProgress
			}
		},
		{ limiters, signal: io.signal, onTracker: (_, t) => (tracker = t) },
		io,
		printer
	);
	if (end.capped) return end.code;
	const { result } = end;
	const from = result.manifest.rejudged_from!;
	io.stdout(
		`Re-judged run ${escapeControl(from.run_id)} (judge ${escapeControl(from.judge)}) with judge ` +
			`${escapeControl(result.manifest.models.judge)}; generation records shared: ` +
			`${from.shared_files.join(', ') || 'none'}\n`
	);
	io.stdout(summaryText(result, options.outputRoot, parsed.simulated));
	return 0;
}

export const rejudge: CommandHandler = {
	summary: 're-judge a finished run with another judge into a new run id',
	usage: `Usage: npx lexpilot rejudge --run-id NAME --as NEW --model ID --judge-model ID [options]

Re-runs only the judge calls of the finished run NAME (LCA labels on its a1 responses, DCG
decisions on its forced questions, LJP verdicts on its predictions) with another judge model,
endpoint or prompt pack, into the new run NEW. No evaluated- or user-model call is made: the
new run's a1, interaction, force_ask, a1_direct and a1_force_judge records are copies of the
source's, and its manifest names the source in "rejudged_from". --model names the source's
evaluated model; the dataset must be the source's. Stages the source judged in full are
re-judged; a stage it judged in part is refused. The same command again resumes NEW.

  --as NEW                 the re-judged run's id (required; not the source's)
  --judge-base-url URL     the new judge's endpoint (or LEXPILOT_JUDGE_BASE_URL); its key from
                           LEXPILOT_JUDGE_API_KEY or OPENAI_API_KEY
  --judge-model, --judge-temperature, --timeout, --retries, --concurrency: for the new judge;
  every other setting is the source run's (its generation records were made with them)

${GENERATION_OPTIONS_HELP.trimEnd()}
${SIMULATED_HELP.replace('answer every role offline', 'judge offline')}

${EXIT_CODES}
`,
	run
};

/** `results`: per-run, per-class and grouped metrics of an output root (PROTOCOL.md §8). */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { UsageError } from '../../lib/core/errors';
import { DEFAULT_RESAMPLES } from '../../lib/core/metrics/bootstrap';
import { DEFAULT_SEED } from '../../lib/core/metrics/prng';
import { compareRuns, comparisonJson } from '../../lib/core/results/compare';
import { formatComparison } from '../../lib/core/results/format-compare';
import { formatReport } from '../../lib/core/results/format-report';
import { computeReport, reportJson } from '../../lib/core/results/report';
import { english } from '../../lib/core/voice';
import { formatReviews } from '../../lib/core/agreement/format';
import { reviewFilesNotRead, runReviews } from '../../lib/core/agreement/run-reviews';
import { DEFAULT_OUTPUT_ROOT } from '../args';
import { escapeControl, escapeStrings } from '../../lib/core/text/escape-control';
import { fsLayoutSource } from '../fs-source';
import { runLeaderboard } from './results-leaderboard';
import type { CommandHandler } from '../types';
import { JUDGES_USAGE, printJudges } from './results-judges';

const usage = `Usage: npx lexpilot results [--output-root D] [--run-id R] [--model M] [--json] [--partial]
       npx lexpilot results --compare RUN_A RUN_B [--model M | --model-a M --model-b M] [--json]
${JUDGES_USAGE}
       npx lexpilot results --leaderboard [--sort COLUMN] [--class C] [--prices FILE]
                                          [--json | --format latex|markdown|csv]

Prints LCA, DCG and LJP metrics per run, per run and cause class, and as mean ± sample SD
over each group of comparable runs (same dataset, selected cases, code and prompts, models
and settings). Computed from the saved eval_results files only; no API calls. Each rate of a
run comes with a 95% case-bootstrap interval (cases resampled with their two LCA histories,
DCG record and claims together; percentile method).

Review files (reviews/<run-id>/<model>/<reviewer>.jsonl, PROTOCOL.md §5) add, per reviewed
run, the agreement of the judge with each reviewer and between reviewers (rate, Cohen's kappa
with a 95% bootstrap interval over the reviewed decisions, confusion matrix, disagreements) and
the judged LCA and DCG metrics corrected by the reviewed sample ("too small to say" below 10
reviewed decisions); --json adds them as "reviews".

--compare RUN_A RUN_B pairs two runs case by case: B − A of every rate, overall and per cause
class, with a paired-bootstrap 95% interval, a two-sided p-value and the smallest difference
detectable at 80% power. Both runs must select the same cases of the same dataset.

--leaderboard sets every model side by side: one row per model (and per settings group), each
column the mean ± SD over its runs with a 95% case-bootstrap interval of the mean, the rank with
its 95% interval (the same resampled cases for every model), and which models are statistically
tied (paired case-bootstrap tests, Holm-corrected). Runs of other cases get a leaderboard of
their own. Tokens and cost per model come from the call logs.

Options:
  --output-root D  the folder holding runs/, eval_results/, ... (default ${DEFAULT_OUTPUT_ROOT})
  --run-id R       only runs with this run id
  --model M        only runs of this evaluated model id, or of this model folder name
  --json           print one JSON object (PROTOCOL.md §8 shape, plus completeness and notes)
  --partial        score incomplete stages over the records saved so far (marked partial, n of N)
  --compare A B    compare run B with run A (run ids); --model picks the model of both runs
  --model-a M      the model of run A (beats --model); --model-b M the same for run B
  --leaderboard    the leaderboard of every model (see above)
  --sort COLUMN    order rows by lca_macro_f1 (default), lca_acc_c, lca_acc_u, dcg_success,
                   ljp_direct_qwk, ljp_gold_qwk, ljp_interaction_qwk (best first), tokens, cost
                   (cheapest first) or model
  --class C        the leaderboard of cause class C instead of all cases
  --prices FILE    prices per million tokens per model id (JSON, see docs/CLI.md): adds cost
  --format F       print the paper's table as latex (booktabs), markdown or csv
  --resamples N    bootstrap resamples, 100 to 100000 (default ${DEFAULT_RESAMPLES})
  --seed S         bootstrap seed, an integer 0 to 4294967295 (default ${DEFAULT_SEED}); the same seed
                   gives the same intervals

A stage whose file is missing or lacks some selected cases is not scored (n/a, null in JSON)
unless --partial is given. Undefined values (zero denominators) print as — and are null in JSON.

Exit codes: 0 report printed; 2 no runs under D (or none matching --run-id/--model), a
malformed file (named with its line), records that do not match the run's selected cases,
or --compare runs that are not found, ambiguous, or do not select the same cases.
`;

export const resultsCommand: CommandHandler = {
	summary: 'print metrics per run, per cause class and over comparable runs',
	usage,
	async run(args, io) {
		const { values, positionals } = parseArgs({
			args,
			strict: true,
			allowPositionals: true,
			options: {
				'output-root': { type: 'string' },
				'run-id': { type: 'string' },
				model: { type: 'string' },
				json: { type: 'boolean', default: false },
				partial: { type: 'boolean', default: false },
				compare: { type: 'boolean', default: false },
				'model-a': { type: 'string' },
				'model-b': { type: 'string' },
				resamples: { type: 'string' },
				seed: { type: 'string' },
				judges: { type: 'string' },
				leaderboard: { type: 'boolean', default: false },
				sort: { type: 'string' },
				class: { type: 'string' },
				prices: { type: 'string' },
				format: { type: 'string' }
			}
		});
		const bootstrap = {
			resamples: integerFlag('--resamples', values.resamples, 100, 100_000, DEFAULT_RESAMPLES),
			seed: integerFlag('--seed', values.seed, 0, 2 ** 32 - 1, DEFAULT_SEED)
		};
		const root = resolve(io.cwd, values['output-root'] ?? DEFAULT_OUTPUT_ROOT);
		if (values.judges !== undefined) {
			const { model, json } = values;
			return printJudges(values.judges, { root, model, json, bootstrap }, io);
		}
		const boardOnly = (['sort', 'class', 'prices', 'format'] as const).filter(
			(f) => values[f] !== undefined
		);
		if (!values.leaderboard && boardOnly.length) {
			throw new UsageError(`--${boardOnly[0]} goes with --leaderboard.`);
		}
		if (values.leaderboard) {
			if (values.compare || positionals.length > 0) {
				throw new UsageError('--leaderboard ranks every run: drop --compare and run ids.');
			}
			return runLeaderboard(
				await fsLayoutSource(root),
				root,
				{
					runId: values['run-id'],
					model: values.model,
					partial: values.partial,
					json: values.json,
					sort: values.sort,
					cls: values.class,
					prices: values.prices,
					format: values.format,
					bootstrap
				},
				io
			);
		}
		if (values.compare) {
			if (positionals.length !== 2) {
				throw new UsageError(
					`--compare needs two run ids, RUN_A and RUN_B (got ${positionals.length}).`
				);
			}
			if (values['run-id'] !== undefined || values.partial) {
				throw new UsageError(
					'--compare names its runs itself and compares complete stages only: drop --run-id and --partial.'
				);
			}
			const source = await fsLayoutSource(root);
			const comparison = await compareRuns(source, {
				a: { runId: positionals[0], model: values['model-a'] ?? values.model },
				b: { runId: positionals[1], model: values['model-b'] ?? values.model },
				bootstrap
			});
			io.stdout(
				values.json
					? `${JSON.stringify({ comparison: comparisonJson(comparison) }, null, 2)}\n`
					: formatComparison(escapeStrings(comparison))
			);
			return 0;
		}
		if (positionals.length > 0) {
			throw new UsageError(
				`unexpected argument ${escapeControl(JSON.stringify(positionals[0]))}: run ids are given with --run-id, or two with --compare.`
			);
		}
		if (values['model-a'] !== undefined || values['model-b'] !== undefined) {
			throw new UsageError(
				'--model-a and --model-b go with --compare; use --model to filter runs.'
			);
		}
		const source = await fsLayoutSource(root);
		const report = await computeReport(source, {
			runId: values['run-id'],
			model: values.model,
			partial: values.partial,
			bootstrap
		});
		if (report.runs.length === 0) {
			const filters = [
				values['run-id'] !== undefined ? `run id "${escapeControl(values['run-id'])}"` : '',
				values.model !== undefined ? `model "${escapeControl(values.model)}"` : ''
			].filter(Boolean);
			const what = filters.length ? `no runs with ${filters.join(' and ')}` : 'no runs';
			const hint = filters.length
				? 'Drop --run-id/--model to list every run.'
				: 'Check --output-root, or run a generation command first.';
			io.stderr(
				`error: ${what} under ${escapeControl(root)} (a run is a runs/<run-id>/<model>/manifest.json). ${hint}\n`
			);
			for (const w of report.warnings) io.stderr(`note: ${escapeControl(english(w))}\n`);
			return 2;
		}
		const reviews = await runReviews(source, report.runs, bootstrap);
		for (const w of await reviewFilesNotRead(source)) io.stderr(`warning: ${english(w)}\n`);
		// Every string of the report (model ids, causes, notes quoting records) escaped before the
		// tables are laid out, so a value can neither break a line nor shift a column.
		io.stdout(
			values.json
				? `${JSON.stringify({ ...(reportJson(report) as object), reviews }, null, 2)}\n`
				: formatReport(escapeStrings(report), escapeControl(root)) +
						(reviews.length ? `\n${formatReviews(escapeStrings(reviews))}\n` : '')
		);
		return 0;
	}
};

/** An integer flag in [min, max], or `fallback` when absent. */
function integerFlag(
	flag: string,
	value: string | undefined,
	min: number,
	max: number,
	fallback: number
): number {
	if (value === undefined) return fallback;
	const n = /^\d+$/.test(value.trim()) ? Number(value.trim()) : NaN;
	if (!Number.isSafeInteger(n) || n < min || n > max) {
		throw new UsageError(
			`${flag} ${escapeControl(JSON.stringify(value))}: expected an integer from ${min} to ${max}.`
		);
	}
	return n;
}

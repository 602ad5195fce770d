/** `results`: per-run, per-class and grouped metrics of an output root (SPEC §8). */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { formatReport } from '../../lib/core/results/format-report';
import { computeReport } from '../../lib/core/results/report';
import { DEFAULT_OUTPUT_ROOT } from '../args';
import { fsLayoutSource } from '../fs-source';
import type { CommandHandler } from '../types';

const usage = `Usage: npm run lexpilot -- results [--output-root D] [--run-id R] [--model M] [--json] [--partial]

Prints LCA, DCG and LJP metrics per run, per run and cause class, and as mean ± sample SD
over each group of comparable runs (same dataset, selected cases, code and prompts, models
and settings). Computed from the saved eval_results files only; no API calls.

Options:
  --output-root D  the folder holding runs/, eval_results/, ... (default ${DEFAULT_OUTPUT_ROOT})
  --run-id R       only runs with this run id
  --model M        only runs of this evaluated model id, or of this model folder name
  --json           print one JSON object (SPEC §8 shape, plus completeness and notes)
  --partial        score incomplete stages over the records saved so far (marked partial, n of N)

A stage whose file is missing or lacks some selected cases is not scored (n/a, null in JSON)
unless --partial is given. Undefined values (zero denominators) print as — and are null in JSON.

Exit codes: 0 report printed; 2 no runs under D (or none matching --run-id/--model), a
malformed file (named with its line), or records that do not match the run's selected cases.
`;

export const resultsCommand: CommandHandler = {
	summary: 'print metrics per run, per cause class and over comparable runs',
	usage,
	async run(args, io) {
		const { values } = parseArgs({
			args,
			strict: true,
			allowPositionals: false,
			options: {
				'output-root': { type: 'string' },
				'run-id': { type: 'string' },
				model: { type: 'string' },
				json: { type: 'boolean', default: false },
				partial: { type: 'boolean', default: false }
			}
		});
		const root = resolve(io.cwd, values['output-root'] ?? DEFAULT_OUTPUT_ROOT);
		const source = await fsLayoutSource(root);
		const report = await computeReport(source, {
			runId: values['run-id'],
			model: values.model,
			partial: values.partial
		});
		if (report.runs.length === 0) {
			const filters = [
				values['run-id'] !== undefined ? `run id "${values['run-id']}"` : '',
				values.model !== undefined ? `model "${values.model}"` : ''
			].filter(Boolean);
			const what = filters.length ? `no runs with ${filters.join(' and ')}` : 'no runs';
			const hint = filters.length
				? 'Drop --run-id/--model to list every run.'
				: 'Check --output-root, or run a generation command first.';
			io.stderr(
				`error: ${what} under ${root} (a run is a runs/<run-id>/<model>/manifest.json). ${hint}\n`
			);
			for (const w of report.warnings) io.stderr(`note: ${w}\n`);
			return 2;
		}
		io.stdout(values.json ? `${JSON.stringify(report, null, 2)}\n` : formatReport(report, root));
		return 0;
	}
};

/** What a generation command prints: its help texts on exit codes and `--simulated`, and its summary. */
import type { RunStagesResult } from '../../lib/core/engine';
import { manifestPath } from '../../lib/core/layout';
import { SIMULATED_MODEL, SIMULATED_ROLE_MODELS } from '../../lib/core/run-config';
import { escapeControl } from '../../lib/core/text/escape-control';

export const EXIT_CODES = `Exit codes: 0 the stage completed; 1 it stopped on an API or judge failure (finished
cases are kept: run the same command again to resume); 2 bad usage, an invalid dataset, an
output root that cannot be written, or saved records / a manifest that do not fit these options.`;

export const SIMULATED_HELP = `  --simulated              answer every role offline with the deterministic simulated
                           provider (no network or key; model defaults to "${SIMULATED_MODEL}";
                           user and judge are "${SIMULATED_ROLE_MODELS.user}" and
                           "${SIMULATED_ROLE_MODELS.judge}"; the manifest says simulated: true)
  --prompts FILE           prompt pack JSON exported from the workbench's Prompts page
                           [the built-in pack]; its hash is part of the manifest, so a
                           run keeps one pack from its first stage to its last`;

export function summaryText(
	result: RunStagesResult,
	outputRoot: string,
	simulated: boolean
): string {
	const { run } = result;
	const lines = [
		`${result.created ? 'Started' : 'Resumed'} run ${escapeControl(run.runId)} of ` +
			`${escapeControl(result.manifest.models.evaluated)}` +
			`${simulated ? ' (simulated provider, offline)' : ''} under ${escapeControl(outputRoot)}`
	];
	for (const s of result.stages) {
		lines.push(`  ${s.stage}: ${s.total} cases (${s.generated} generated, ${s.resumed} resumed)`);
	}
	const files = [manifestPath(run), ...result.stages.flatMap((s) => s.files)];
	lines.push('Files:', ...files.map((f) => `  ${escapeControl(f)}`));
	return `${lines.join('\n')}\n`;
}

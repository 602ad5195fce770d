/**
 * `batch import OUTPUT… <the plan's flags>`: one import answers the waiting files rounds of every
 * run of the plan (`importPlanBatchOutputs`: each line goes to the run its custom_id names; a line
 * of a run outside the plan, torn, not asked or answered twice refuses the whole import, file and
 * line named, nothing saved), then the plan goes on as `run --batch files` does.
 */
import {
	importPlanBatchOutputs,
	type ImportResult,
	type OutputFile
} from '../../lib/core/batch/import';
import { runKey } from '../../lib/core/names';
import { escapeControl } from '../../lib/core/text/escape-control';
import { batchRunKey } from '../../lib/core/batch/pass';
import type { StageValues } from '../commands/stage';
import type { PlanFlags } from '../plan/plan-args';
import type { CliIo } from '../types';
import { planBatchClis, planRunName, runPlanBatchCli, type PlanBatchFlags } from './plan-batch-cli';
import { plural } from './plan-batch-summary';
import { batchRunOptions, failedText } from './run-batch';

/**
 * `Imported 12 answers of round 2` (a plan's run: `run1 model-a: imported …`), the requests left
 * unanswered, and the failed requests of the files by kind with the first message of each; lines
 * the run had taken before (an import run again) are said apart: `Already imported: round 1 (…)`.
 */
export function importedText(name: string | null, g: ImportResult): string {
	const lead = (words: string) =>
		name === null ? words[0].toUpperCase() + words.slice(1) : `${escapeControl(name)}: ${words}`;
	const before =
		`round${g.alreadyRounds.length > 1 ? 's' : ''} ${g.alreadyRounds.join(', ')}` +
		` (${plural(g.already, 'line')} taken before; nothing saved again)`;
	if (!g.imported) return `${lead('already imported')}: ${before}\n`;
	return (
		`${lead('imported')} ${g.answers} answers of round ${g.round}` +
		(g.missing ? ` (${g.missing} requests unanswered: asked again in the next round)` : '') +
		'\n' +
		(g.already ? `  already imported: ${before}\n` : '') +
		failedText(g.failed, '  ')
	);
}

export async function importIntoPlan(
	files: readonly OutputFile[],
	values: StageValues,
	flags: PlanFlags,
	shared: PlanBatchFlags,
	allowMissing: boolean,
	io: CliIo
): Promise<number> {
	const clis = await planBatchClis(values, flags, shared, io);
	const options = await Promise.all(clis.map((cli) => batchRunOptions(cli, io)));
	const got = await importPlanBatchOutputs(options, files, { allowMissing });
	const keys = await Promise.all(options.map(async (o) => runKey(await batchRunKey(o))));
	for (const g of got) {
		const cli = clis[keys.indexOf(runKey(g.run))];
		io.stdout(importedText(planRunName(cli), g));
	}
	return runPlanBatchCli(clis, io);
}

/** `lexpilot batch status|import …`: batch-mode rounds of a run (docs/BATCH.md). */
import { UsageError } from '../../lib/core/errors';
import { escapeControl } from '../../lib/core/text/escape-control';
import { BATCH_HELP, EXIT_WAITING } from '../batch/batch-flags';
import { batchImport } from '../batch/import-command';
import { batchStatus } from '../batch/status-command';
import type { CommandHandler } from '../types';

const USAGE = `Usage: npm run lexpilot -- batch status [--run-id ID] [--output-root DIR]
       npm run lexpilot -- batch status <a plan's flags> [--output-root DIR]
       npm run lexpilot -- batch import OUTPUT… <the run's or the plan's flags> [--allow-missing]

status   each batch-mode run's rounds: status, time sent, requests, files (batch ids); with a
         plan's flags (--model A --model B, --repetitions R, --plan FILE, --run-id): each run
         of the plan in its order, "no round yet" for one not started
import   reads the output files of the waiting round (files mode), refuses the whole
         import when a line is torn, of another run, not asked in the round or answered
         twice (file and line named; nothing saved), saves the answers and goes on: the next
         round is written (exit ${EXIT_WAITING}) or the run completes (exit 0). Give the flags the run
         was started with (--run-id, --model, --dataset, …). --allow-missing: requests no
         file answers are asked again in the next round instead of refusing the import.
         With a plan's flags, ONE import takes the output files of every run of the plan
         (each line goes to the run its custom_id names; a line of a run outside the plan
         is refused; a run the files answer nothing of stays waiting for a later import)
         and goes on with all of them, as run --batch files does.

${BATCH_HELP}

Exit codes: 0 done (status; import: the run, or every run of the plan, completed); ${EXIT_WAITING} the next
round is written and waits for its outputs (a plan: a run waits and none failed); 1 an API or
judge failure; 2 bad usage, a refused output file, or saved records that do not fit.
`;

export const batchCommand: CommandHandler = {
	summary: 'batch-mode rounds: status, import of output files (docs/BATCH.md)',
	usage: USAGE,
	run: async (args, io) => {
		const [verb, ...rest] = args;
		if (verb === 'status') return batchStatus(rest, io);
		if (verb === 'import') return batchImport(rest, io);
		throw new UsageError(
			`batch: ${escapeControl(JSON.stringify(String(verb ?? '').slice(0, 40)))} is not status or import`
		);
	}
};

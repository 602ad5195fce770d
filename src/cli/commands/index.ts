/** Every CLI command, in the order `--help` lists them. */
import type { CommandHandler } from '../types';
import { validate } from './validate';
import { resultsCommand } from './results';
import { stageCommands } from './stage';
import { runCommandHandler } from './run';
import { rejudge } from './rejudge';
import { batchCommand } from './batch';

export const commands: Record<string, CommandHandler> = {
	validate,
	run: runCommandHandler,
	...stageCommands,
	rejudge,
	results: resultsCommand,
	batch: batchCommand
};

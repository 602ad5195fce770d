/** Every CLI command, in the order `--help` lists them. */
import type { CommandHandler } from '../types';
import { validate } from './validate';
import { resultsCommand } from './results';

export const commands: Record<string, CommandHandler> = { validate, results: resultsCommand };

/** Every CLI command, in the order `--help` lists them. */
import type { CommandHandler } from '../types';
import { validate } from './validate';

export const commands: Record<string, CommandHandler> = { validate };

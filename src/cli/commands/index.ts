/** Every CLI command, in the order `--help` lists them. */
import type { CommandHandler } from '../types';

export const commands: Record<string, CommandHandler> = {};

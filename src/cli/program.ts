/**
 * The CLI dispatcher. Commands are handlers keyed by name; `createProgram` maps errors to
 * the PROTOCOL.md §8 exit codes: 0 done, 1 API/judge failure, 2 bad usage, invalid input or a
 * checkpoint/manifest mismatch. A user never sees a stack trace.
 */
import { CheckpointError, ModelCallError, UsageError } from '../lib/core/errors';
import { clipText, RAW_OUTPUT_CHARS } from '../lib/core/text/clip';
import { escapeControl, escapeForTerminal } from '../lib/core/text/escape-control';
import { installNodeSha256 } from '../lib/adapters/node-hash';
import type { CliIo, CommandHandler } from './types';

/**
 * The terminal every command writes to: control characters (ESC, C1, DEL, bidi overrides, a
 * carriage return…) are escaped visibly in everything written, whatever the command or the
 * text's origin, so a dataset, a record or a provider can never drive the terminal. Line feeds
 * and tabs are kept (the layout is ours); `redraw` is the one sanctioned cursor movement.
 */
export function terminalSafe(io: CliIo): CliIo {
	return {
		...io,
		stdout: (text) => io.stdout(escapeForTerminal(text)),
		stderr: (text) => io.stderr(escapeForTerminal(text)),
		redraw: (line) => io.stderr(`\r\x1b[2K${escapeForTerminal(line)}`)
	};
}

export function createProgram(handlers: Record<string, CommandHandler>) {
	// Every core hash of the CLI through node:crypto: the same digests, without the thread pool.
	installNodeSha256();
	const help = () =>
		[
			'Usage: npx lexpilot <command> [options]   (or: npm run lexpilot -- <command> [options])',
			'',
			'Commands:',
			...Object.entries(handlers).map(([name, h]) => `  ${name.padEnd(16)} ${h.summary}`),
			'',
			'Run "npx lexpilot <command> --help" for the options of a command.'
		].join('\n') + '\n';

	return async function run(argv: string[], rawIo: CliIo): Promise<number> {
		const io = terminalSafe(rawIo);
		const [name, ...args] = argv;
		if (!name || name === '--help' || name === '-h' || name === 'help') {
			io.stdout(help());
			return name ? 0 : 2;
		}
		const handler = handlers[name];
		if (!handler) {
			io.stderr(`Unknown command "${escapeControl(name)}".\n\n${help()}`);
			return 2;
		}
		if (args.includes('--help') || args.includes('-h')) {
			io.stdout(`${handler.usage.trimEnd()}\n`);
			return 0;
		}
		try {
			return await handler.run(args, io);
		} catch (e) {
			return reportError(e, io);
		}
	};
}

/** Prints an error the way a researcher wants to read it and returns the exit code. */
export function reportError(e: unknown, io: CliIo): number {
	if (e instanceof UsageError || e instanceof CheckpointError) {
		io.stderr(`error: ${e.message}\n`);
		return 2;
	}
	if (e instanceof ModelCallError) {
		io.stderr(`error: ${e.message}\n`);
		if (e.details.rawOutput !== undefined) {
			io.stderr(`raw output:\n${clipText(e.details.rawOutput, RAW_OUTPUT_CHARS)}\n`);
		}
		return 1;
	}
	// Node's util.parseArgs reports unknown or malformed flags with these codes.
	const code = (e as { code?: string } | null)?.code;
	if (typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS')) {
		// One line quoting what was typed (an unknown flag, a value): escaped whole.
		io.stderr(`error: ${escapeControl((e as Error).message)}\n`);
		return 2;
	}
	io.stderr(`error: ${e instanceof Error ? e.message : String(e)}\n`);
	return 1;
}

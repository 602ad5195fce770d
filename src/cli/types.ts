/** What a CLI command gets from the terminal. Commands never touch `process` directly. */
export interface CliIo {
	stdout(text: string): void;
	stderr(text: string): void;
	env: Record<string, string | undefined>;
	cwd: string;
	/** True when stderr is a terminal (progress bars), false for plain progress lines. */
	isTTY: boolean;
	/** Aborted on Ctrl+C; long commands stop cleanly, keeping finished cases. */
	signal: AbortSignal;
	/**
	 * Redraws the progress line of a terminal in place (carriage return, erase line, `line`).
	 * Set by `createProgram`, whose `stdout`/`stderr` escape every control character; this is
	 * the one way a command may move the cursor. Without it, `stderr` gets the raw sequence.
	 */
	redraw?(line: string): void;
}

/** A command: its arguments (after the command name) in, an exit code out. */
export interface CommandHandler {
	summary: string;
	usage: string;
	run(args: string[], io: CliIo): Promise<number>;
}

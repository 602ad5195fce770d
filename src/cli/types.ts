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
}

/** A command: its arguments (after the command name) in, an exit code out. */
export interface CommandHandler {
	summary: string;
	usage: string;
	run(args: string[], io: CliIo): Promise<number>;
}

/**
 * The real CLI, run by tests the two ways a researcher runs it: in this process through
 * `createProgram` with every command, or as `npx lexpilot` does, a `bin/lexpilot.js` child
 * process running the bundled CLI (built by the unit project's global set-up). Either way stdout and stderr are captured whole, and stderr is not a terminal,
 * so progress comes as plain lines.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { constants } from 'node:os';
import { commands } from '../../src/cli/commands';
import { createProgram } from '../../src/cli/program';

export interface CliResult {
	code: number;
	stdout: string;
	stderr: string;
}

/** What the in-process CLI gets besides its arguments. */
export interface InProcessOptions {
	/** The whole environment the CLI sees; the test's own `process.env` never leaks in. @default {} */
	env?: Record<string, string>;
	/** @default process.cwd() */
	cwd?: string;
	/** Aborted like Ctrl+C aborts the real CLI. @default a signal that never aborts */
	signal?: AbortSignal;
}

/** Where a command of a run reads and writes. */
export interface RunPlace {
	/** The dataset file (`--dataset`). */
	dataset: string;
	/** The output root (`--output-root`). */
	root: string;
	/** @default 'r1' */
	runId?: string;
	/** Puts `--simulated` first. @default false */
	simulated?: boolean;
}

/** `command [--simulated] --dataset … --output-root … --run-id …`, then `more`: a run's argv. */
export function runArgs(command: string, place: RunPlace, ...more: string[]): string[] {
	const { dataset, root, runId = 'r1', simulated = false } = place;
	return [
		command,
		...(simulated ? ['--simulated'] : []),
		'--dataset',
		dataset,
		'--output-root',
		root,
		'--run-id',
		runId,
		...more
	];
}

const program = createProgram(commands);

/** Runs `args` (command first) through the real handlers, in this process. */
export async function runCliInProcess(
	args: readonly string[],
	options: InProcessOptions = {}
): Promise<CliResult> {
	let stdout = '';
	let stderr = '';
	const code = await program([...args], {
		stdout: (t) => (stdout += t),
		stderr: (t) => (stderr += t),
		env: options.env ?? {},
		cwd: options.cwd ?? process.cwd(),
		isTTY: false,
		signal: options.signal ?? new AbortController().signal
	});
	return { code, stdout, stderr };
}

/**
 * Runs `args` as `npx lexpilot` does (`node bin/lexpilot.js`), in a child process in this working directory with
 * `env` on top of PATH and HOME; `onSpawn` gets the child, so a test can send it SIGINT. A
 * child killed by a signal exits with 128 + its number, as a shell reports it.
 */
export function runCliAsProcess(
	args: readonly string[],
	env: Record<string, string>,
	onSpawn: (child: ChildProcess) => void = () => {}
): Promise<CliResult> {
	return new Promise((resolvePromise, reject) => {
		const child = spawn(process.execPath, ['bin/lexpilot.js', ...args], {
			cwd: process.cwd(),
			env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
			stdio: ['ignore', 'pipe', 'pipe']
		});
		let stdout = '';
		let stderr = '';
		child.stdout!.on('data', (d: Buffer) => (stdout += d.toString('utf8')));
		child.stderr!.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
		child.on('error', reject);
		child.on('close', (code, signal) =>
			resolvePromise({
				code: code ?? 128 + (signal ? constants.signals[signal] : 0),
				stdout,
				stderr
			})
		);
		onSpawn(child);
	});
}

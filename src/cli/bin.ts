/**
 * `lexpilot <command>` (`npx lexpilot`, `npm run lexpilot --`): wires the commands to the real
 * terminal. Run bundled, as `bin/lexpilot.js` builds it (`scripts/build-cli.js`).
 */
import { createProgram } from './program';
import { commands } from './commands';
import { limitHeapGrowth } from './heap-growth';
import { userCwd } from './user-cwd';

limitHeapGrowth(process.execArgv, process.env.NODE_OPTIONS);

const controller = new AbortController();

/**
 * A reader that goes away (`lexpilot … 2>&1 | head`): a write to the closed pipe fails with
 * EPIPE. The command then stops as on Ctrl+C (finished cases kept, the lock released), writes
 * nothing more to that stream, and exits as an interrupted run (1): its output was not all read.
 */
const closed = new Set<NodeJS.WriteStream>();
for (const stream of [process.stdout, process.stderr]) {
	stream.on('error', (e: NodeJS.ErrnoException) => {
		if (e.code !== 'EPIPE') throw e;
		closed.add(stream);
		controller.abort();
		// The last write of a finished command fails after its exit code was set.
		if (process.exitCode === 0) process.exitCode = 1;
	});
}
const writeTo = (stream: NodeJS.WriteStream) => (text: string) => {
	if (!closed.has(stream)) stream.write(text);
};
const stdout = writeTo(process.stdout);
const stderr = writeTo(process.stderr);

process.once('SIGINT', () => {
	stderr(
		'\nStopping: calls in flight are abandoned (those cases are regenerated on resume); finished cases are kept.\n'
	);
	controller.abort();
});

const run = createProgram(commands);
const code = await run(process.argv.slice(2), {
	stdout,
	stderr,
	env: process.env,
	cwd: userCwd(process.env, process.cwd()),
	isTTY: Boolean(process.stderr.isTTY),
	signal: controller.signal
});
process.exitCode = closed.size > 0 && code === 0 ? 1 : code;

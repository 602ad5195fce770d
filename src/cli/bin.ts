/** `npm run lexpilot -- <command>`: wires the commands to the real terminal. */
import { createProgram } from './program';
import { commands } from './commands';

const controller = new AbortController();
process.once('SIGINT', () => {
	process.stderr.write(
		'\nStopping: calls in flight are abandoned (those cases are regenerated on resume); finished cases are kept.\n'
	);
	controller.abort();
});

const run = createProgram(commands);
const code = await run(process.argv.slice(2), {
	stdout: (t) => process.stdout.write(t),
	stderr: (t) => process.stderr.write(t),
	env: process.env,
	cwd: process.cwd(),
	isTTY: Boolean(process.stderr.isTTY),
	signal: controller.signal
});
process.exitCode = code;

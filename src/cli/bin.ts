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
	cwd: userCwd(process.env, process.cwd()),
	isTTY: Boolean(process.stderr.isTTY),
	signal: controller.signal
});
process.exitCode = code;

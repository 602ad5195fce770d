/**
 * The directory the user typed the command in, which relative paths (`--dataset`,
 * `--output-root`, `--categories`, `--prompts`) resolve from. `npm run lexpilot` runs the
 * script from the package root and keeps the user's directory in `INIT_CWD`; `npx lexpilot`
 * and a direct `node bin/lexpilot.js` run where the user is.
 */
import { dirname, isAbsolute, resolve } from 'node:path';

/**
 * `INIT_CWD` when npm moved the process to the package root (the working directory is the
 * folder of `npm_package_json`), else `cwd`. Checking both keeps a child process that merely
 * inherits npm's variables (a test run under `npm test` spawning the CLI in a temporary folder)
 * at its own working directory.
 */
export function userCwd(env: Record<string, string | undefined>, cwd: string): string {
	const init = env.INIT_CWD;
	const pkg = env.npm_package_json;
	if (!init || !isAbsolute(init) || !pkg || !isAbsolute(pkg)) return cwd;
	return resolve(dirname(pkg)) === resolve(cwd) ? init : cwd;
}

/**
 * Vitest global set-up: builds the bundled CLI (dist/cli/lexpilot.mjs) once, before any test
 * spawns `bin/lexpilot.js`, so child processes start from a fresh bundle instead of racing to
 * rebuild it, and a source edit is always what the process tests run.
 */
import { buildCli, isStale } from '../../scripts/build-cli.js';

export default async function setup(): Promise<void> {
	if (isStale()) await buildCli();
}

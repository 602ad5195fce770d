#!/usr/bin/env node
// `lexpilot` (npx lexpilot …, npm run lexpilot -- …): runs the bundled CLI, dist/cli/lexpilot.mjs.
// `npm ci` builds it (the `prepare` script); when it is missing or older than one of the source
// files it was built from (an edited checkout), it is built here first, at this run.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildCli, DEFAULT_OUTFILE, isStale, ROOT } from '../scripts/build-cli.js';

if (isStale()) {
	try {
		await buildCli();
	} catch (e) {
		process.stderr.write(
			`error: cannot build the lexpilot CLI from src/cli/bin.ts: ${e instanceof Error ? e.message : String(e)}\n`
		);
		process.exit(2);
	}
}
await import(pathToFileURL(join(ROOT, DEFAULT_OUTFILE)).href);

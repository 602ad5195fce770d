/**
 * The first-load budget (PERFORMANCE.md, Targets): a fresh visit to any page of the built site
 * fetches at most 100 kB of gzip JavaScript before the page runs (its entry, route nodes and
 * their static imports: tests/bench/first-load.ts). What the first paint does not need loads on
 * first use, through `import()`. Reads `build/`: run `npm run build` first.
 */
import { existsSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIRST_LOAD_BUDGET_KB, firstLoad, ROUTES } from '../bench/first-load';

const BUILD = resolve(import.meta.dirname, '../../build');

describe('first load of every page', () => {
	it('has a build to measure', () => {
		expect(existsSync(join(BUILD, 'index.html')), 'run "npm run build" first').toBe(true);
	});

	it.each(ROUTES)('%s stays within the budget', async (route) => {
		const { files, kb } = await firstLoad(BUILD, route);
		expect(
			kb,
			`${route}: ${kb.toFixed(2)} kB in ${files.map((f) => basename(f)).join(', ')}`
		).toBeLessThanOrEqual(FIRST_LOAD_BUDGET_KB);
	});
});

/**
 * `src/hooks.client.ts` switches zod's `new Function` probe off (it trips the site's CSP)
 * without importing zod, so that zod stays out of the pages' first load. That relies
 * on zod reading its settings from `globalThis.__zod_globalConfig` when it loads later: this
 * checks it still does (a zod upgrade that moved the settings would fail here, not in the CSP).
 */
import { expect, it } from 'vitest';

it('zod imported after the client hooks runs jitless', async () => {
	const scope = globalThis as { __zod_globalConfig?: Record<string, unknown> };
	expect(scope.__zod_globalConfig?.jitless).toBeUndefined();
	await import('../../src/hooks.client');
	const { z } = await import('zod');
	expect(z.config().jitless).toBe(true);
	// And zod's own probe, the thing the CSP reports, is answered without `new Function`.
	const util = await import('zod/v4/core').then((core) => core.util);
	expect(util.allowsEval.value).toBe(false);
});

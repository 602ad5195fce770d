import { describe, expect, it } from 'vitest';
import { runKey } from '$lib/core/names';
import { STAGE_FILE_NAMES, type StageFile } from '$lib/core/record-names';
import type { StoredRun } from '$lib/core/store/types';
import { baseLocale, overwriteGetLocale } from '$lib/paraglide/runtime';
import { isIncomplete, isInProgress } from './run-progress';
import { shortFileText, shortFiles } from './short-files';

overwriteGetLocale(() => baseLocale);

/** A run of 3 selected cases whose gen stage is whole; `counts` sets the other files. */
function stored(counts: Partial<Record<StageFile, number>>): StoredRun {
	const all = Object.fromEntries(STAGE_FILE_NAMES.map((f) => [f, 0])) as Record<StageFile, number>;
	return {
		run: { runId: 'imported', modelDir: 'sim-model-a-12345678' },
		manifest: { dataset: { selected_case_numbers: [1, 2, 3] } } as StoredRun['manifest'],
		counts: { ...all, a1: 6, LCA_results: 6, interaction: 3, ...counts }
	};
}

describe('run progress', () => {
	// DCG_results 0 bytes in the bundle, force_ask whole.
	const emptyDcg = stored({ force_ask: 3, DCG_results: 0 });

	it('is never in progress when nothing writes the run (imported, stopped)', () => {
		expect(isIncomplete(emptyDcg)).toBe(true);
		expect(isInProgress(emptyDcg, [])).toBe(false);
		expect(isInProgress(emptyDcg, ['other\u0000sim-model-a-12345678'])).toBe(false);
	});

	it('is in progress only while its writer lock is held', () => {
		expect(isInProgress(emptyDcg, [runKey(emptyDcg.run)])).toBe(true);
		const whole = stored({ force_ask: 3, DCG_results: 3 });
		expect(isInProgress(whole, [runKey(whole.run)])).toBe(false);
	});

	it('names the short files, an empty one as empty', () => {
		const run = stored({ force_ask: 3, DCG_results: 0, a1_force_judge: 3, LJP_gold: 2 });
		expect(shortFiles(run)).toEqual([
			{ file: 'DCG_results', have: 0, expected: 3 },
			{ file: 'LJP_gold', have: 2, expected: 3 }
		]);
		expect(shortFiles(run).map(shortFileText)).toEqual([
			'DCG_results is empty: 0 of 3 records (for an imported run, the file was empty in the bundle)',
			'LJP_gold has 2 of 3 records'
		]);
	});

	it('counts two records per case in a1 and LCA_results', () => {
		const run = stored({ a1: 3, LCA_results: 6 });
		expect(shortFiles(run)).toEqual([{ file: 'a1', have: 3, expected: 6 }]);
		expect(isIncomplete(run)).toBe(true);
	});
});

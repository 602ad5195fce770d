import { describe, expect, it } from 'vitest';
import type { StoredRun } from '$lib/core/store/types';
import { judgedPairs } from './judged-pairs';

const run = (runId: string, modelDir: string, from?: [string, string]) =>
	({
		run: { runId, modelDir },
		manifest: from ? { rejudged_from: { run_id: from[0], model_dir: from[1] } } : {}
	}) as unknown as StoredRun;

describe('judgedPairs', () => {
	const src = [run('r1', 'm1'), run('r1', 'm2')];
	const j2 = [run('r2', 'm1', ['r1', 'm1']), run('r2', 'm2', ['r1', 'm2'])];

	it('pairs each shown re-judged run with its stored source, one pair per two run ids', () => {
		expect(judgedPairs(j2, [...src, ...j2])).toEqual([
			{
				a: 'r1',
				b: 'r2',
				runs: [
					{ runId: 'r1', modelDir: 'm1' },
					{ runId: 'r2', modelDir: 'm1' },
					{ runId: 'r1', modelDir: 'm2' },
					{ runId: 'r2', modelDir: 'm2' }
				]
			}
		]);
	});

	it('leaves out runs not re-judged, sources not stored, and other model folders', () => {
		expect(judgedPairs(src, [...src, ...j2])).toEqual([]);
		expect(judgedPairs(j2, j2)).toEqual([]);
		expect(judgedPairs([run('r3', 'm1', ['r1', 'm2'])], src)).toEqual([]);
	});
});

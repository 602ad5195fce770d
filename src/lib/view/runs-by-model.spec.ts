import { describe, expect, it } from 'vitest';
import { runsByModel } from './runs-by-model';

const run = (id: string, evaluated: string) => ({ id, manifest: { models: { evaluated } } });

describe('runsByModel', () => {
	it('groups runs by evaluated model, models by first run, runs in the order given', () => {
		const runs = [run('1', 'b'), run('2', 'a'), run('3', 'b'), run('4', 'c'), run('5', 'a')];
		expect(runsByModel(runs).map(([model, rs]) => [model, rs.map((r) => r.id)])).toEqual([
			['b', ['1', '3']],
			['a', ['2', '5']],
			['c', ['4']]
		]);
	});
});

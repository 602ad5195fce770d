/** How long loading (parsing + validating + hashing) a full-size dataset takes. Target: 100 ms. */
import { loadDataset } from '../../src/lib/core/dataset/load';
import { median, timeRuns } from './measure';
import { syntheticDataset } from './synthetic-dataset';
import type { BenchModule } from './types';

export const validationBench: BenchModule = {
	name: 'dataset validation',
	async run() {
		const bytes = new TextEncoder().encode(JSON.stringify(syntheticDataset(), null, 2));
		const check = await loadDataset(bytes);
		if (!check.ok || check.dataset.summary.histories !== 864) {
			throw new Error('the synthetic dataset did not load as 432 cases / 864 histories');
		}
		const times = await timeRuns(() => loadDataset(bytes), { warmup: 3, iterations: 15 });
		return [
			{
				name: 'loadDataset, 432 cases / 864 histories (median of 15)',
				value: median(times),
				unit: 'ms',
				target: 100
			},
			{ name: 'loadDataset, slowest of 15', value: Math.max(...times), unit: 'ms', target: null },
			{ name: 'synthetic dataset size', value: bytes.length / 1e6, unit: 'MB', target: null }
		];
	}
};

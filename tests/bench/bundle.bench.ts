/**
 * Export and import of a five-run bundle (five full 432-case runs in the canonical layout)
 * through src/lib/adapters/zip-bundle.ts: `zipBundle` as Export does once the files are read,
 * and `readZipBundle` (unzip, size limits, paths, manifests, every record, case alignment) as
 * Import does before it writes to IndexedDB. Neither IndexedDB side is timed here.
 */
import { readZipBundle, zipBundle } from '../../src/lib/adapters/zip-bundle';
import { median, timeRuns } from './measure';
import { countRecords, repeatedRuns } from './simulated-runs';
import type { BenchModule } from './types';

const RUNS = 5;
const CASES = 432;

export const bundleBench: BenchModule = {
	name: 'bundle export/import',
	async run() {
		const files = await repeatedRuns(CASES, RUNS);
		const { records, calls } = countRecords(files);
		const zip = await zipBundle(files);
		const bundle = await readZipBundle(zip, 'bench.zip');
		const read = bundle.runs.reduce(
			(sum, run) =>
				sum + Object.values(run.files).reduce((n, file) => n + (file?.records.length ?? 0), 0),
			0
		);
		const readCalls = bundle.runs.reduce((sum, run) => sum + (run.calls?.entries.length ?? 0), 0);
		if (bundle.runs.length !== RUNS || read !== records || readCalls !== calls) {
			throw new Error(
				`the bundle read back ${bundle.runs.length} runs / ${read} records / ${readCalls} calls, ` +
					`not ${RUNS} / ${records} / ${calls}`
			);
		}
		const options = { warmup: 1, iterations: 3 };
		const exportMs = median(await timeRuns(() => zipBundle(files), options));
		const importMs = median(await timeRuns(() => readZipBundle(zip, 'bench.zip'), options));
		const encoder = new TextEncoder();
		let rawBytes = 0;
		for (const text of files.values()) rawBytes += encoder.encode(text).length;
		return [
			{
				name: `bundle export (zipBundle), ${RUNS} runs × ${CASES} cases, ${records} records, ${calls} calls`,
				value: exportMs,
				unit: 'ms',
				target: null
			},
			{
				name: 'bundle import (readZipBundle: unzip + validate all), same bundle',
				value: importMs,
				unit: 'ms',
				target: null
			},
			{
				name: `bundle size, zip (of ${(rawBytes / 1e6).toFixed(1)} MB uncompressed)`,
				value: zip.length / 1e6,
				unit: 'MB',
				target: null
			}
		];
	}
};

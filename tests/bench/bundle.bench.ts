/**
 * Export and import of a five-run bundle: five full 432-case runs in the canonical layout.
 * src/lib/adapters/zip-bundle.ts did not exist when this bench was written, so it measures
 * what that module is specified to do at the least: fflate zip of the layout's files, and
 * unzip + path check + manifest and JSONL validation (`parseJsonl` with the record schemas).
 */
import { strFromU8, strToU8, unzipSync, zipSync, type Zippable } from 'fflate';
import { parseJsonl } from '../../src/lib/core/jsonl';
import { parseLayoutPath } from '../../src/lib/core/layout';
import { Manifest, STAGE_FILES } from '../../src/lib/core/records';
import { median, timeRuns } from './measure';
import { countRecords, repeatedRuns } from './simulated-runs';
import type { BenchModule } from './types';

const RUNS = 5;
const CASES = 432;

function exportZip(files: Map<string, string>): Uint8Array {
	const entries: Zippable = {};
	for (const [path, text] of files) entries[path] = strToU8(text);
	return zipSync(entries);
}

/** Unzips and validates every file; returns the number of records read. */
function importZip(zip: Uint8Array): number {
	let records = 0;
	for (const [path, bytes] of Object.entries(unzipSync(zip))) {
		const named = parseLayoutPath(path);
		if (!named) throw new Error(`${path}: not a file of the canonical layout`);
		const text = strFromU8(bytes);
		if (named.kind === 'manifest') Manifest.parse(JSON.parse(text));
		else records += parseJsonl(text, STAGE_FILES[named.file].schema, path).length;
	}
	return records;
}

export const bundleBench: BenchModule = {
	name: 'bundle export/import',
	async run() {
		const files = await repeatedRuns(CASES, RUNS);
		const records = countRecords(files);
		const zip = exportZip(files);
		if (importZip(zip) !== records) throw new Error('the bundle did not read back every record');
		const options = { warmup: 1, iterations: 3 };
		const exportMs = median(await timeRuns(() => exportZip(files), options));
		const importMs = median(await timeRuns(() => importZip(zip), options));
		let rawBytes = 0;
		for (const text of files.values()) rawBytes += strToU8(text).length;
		return [
			{
				name: `bundle export, ${RUNS} runs × ${CASES} cases (fflate zip; no zip-bundle.ts yet)`,
				value: exportMs,
				unit: 'ms',
				target: null
			},
			{
				name: `bundle import: unzip + validate ${records} records (fflate + parseJsonl)`,
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

import { describe, expect, it } from 'vitest';
import { datasetBytes, validCases } from '../../../../tests/fixtures/datasets/factory';
import { loadDataset, type LoadProgress } from './load';
import { parseOrderedJson } from './ordered-json';

describe('loadDataset progress', () => {
	it('reports bytes read, then cases checked, each rising and bounded in number', async () => {
		const bytes = datasetBytes(validCases(1000));
		const reports: LoadProgress[] = [];
		const result = await loadDataset(bytes, { onProgress: (p) => reports.push(p) });
		expect(result.ok).toBe(true);

		const reading = reports.filter((p) => p.phase === 'reading');
		const checking = reports.filter((p) => p.phase === 'checking');
		// Reading comes first, then checking.
		expect(reports.findIndex((p) => p.phase === 'checking')).toBe(reading.length);
		expect(reading.length).toBeGreaterThan(10);
		expect(reading.length).toBeLessThanOrEqual(101);
		expect(checking.length).toBeGreaterThan(10);
		expect(checking.length).toBeLessThanOrEqual(101);
		for (const list of [reading, checking]) {
			for (let i = 1; i < list.length; i++) expect(list[i].done).toBeGreaterThan(list[i - 1].done);
		}
		expect(reading.every((p) => p.total === bytes.length && p.done <= bytes.length)).toBe(true);
		// The last item ends just before the closing "]" and newline-free JSON's last bytes.
		expect(reading.at(-1)!.done).toBeGreaterThan(bytes.length * 0.98);
		expect(checking.every((p) => p.total === 1000)).toBe(true);
		expect(checking[0].done).toBe(0);
	});
});

describe('parseOrderedJson onTopLevelItem', () => {
	it('is called once per top-level item with the offset just past it, never for nested items', () => {
		const text = '[1, [2, 3], {"a": [4]}]';
		const ends: number[] = [];
		parseOrderedJson(text, { onTopLevelItem: (end) => ends.push(end) });
		expect(ends.map((end) => text.slice(0, end))).toEqual([
			'[1',
			'[1, [2, 3]',
			'[1, [2, 3], {"a": [4]}'
		]);
	});
});

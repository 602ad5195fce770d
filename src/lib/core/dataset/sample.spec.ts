/** The shipped sample must load cleanly and exercise every shape the loader accepts. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CLASSES, parseCategoryMap } from './categories';
import { loadDataset } from './load';

const sampleBytes = readFileSync('static/sample/lexpilot-sample.json');

describe('static/sample/lexpilot-sample.json', async () => {
	const result = await loadDataset(sampleBytes);
	if (!result.ok) throw new Error(result.problems.map((p) => p.text).join('\n'));
	const { dataset, warnings } = result;

	it('validates with no problem and no warning', () => {
		expect(warnings).toEqual([]);
		expect(dataset.cases.length).toBeGreaterThanOrEqual(12);
	});

	it('covers all six default classes and at least 8 causes', () => {
		expect(Object.keys(dataset.summary.classes).sort()).toEqual([...DEFAULT_CLASSES].sort());
		expect(dataset.summary.causes).toBeGreaterThanOrEqual(8);
	});

	it('has every verdict, 2–4 claims per case, and several focal points somewhere', () => {
		const verdicts = new Set(dataset.cases.flatMap((c) => c.claims.map((x) => x.verdict)));
		expect([...verdicts].sort()).toEqual(['支持', '部分支持', '驳回'].sort());
		for (const c of dataset.cases) expect(c.claims.length).toBeGreaterThanOrEqual(2);
		for (const c of dataset.cases) expect(c.claims.length).toBeLessThanOrEqual(4);
		expect(dataset.cases.some((c) => c.focal_points.length > 1)).toBe(true);
	});

	it('mixes key_details forms, case_number types and history lengths', () => {
		const forms = new Set(
			dataset.cases.map((c) =>
				typeof c.key_details === 'string'
					? 'string'
					: Array.isArray(c.key_details)
						? 'list'
						: 'object'
			)
		);
		expect(forms).toEqual(new Set(['string', 'list', 'object']));
		const raw = JSON.parse(sampleBytes.toString('utf8')) as Array<{ case_number: unknown }>;
		expect(raw.some((c) => typeof c.case_number === 'number')).toBe(true);
		expect(dataset.summary.extraPairs).toBeGreaterThan(0);
		expect(dataset.summary.messages.max).toBeGreaterThanOrEqual(5);
		expect(dataset.summary.messages.min).toBe(1);
	});

	it('hides the key facts: the underspecified history is shorter in text than the complete one', () => {
		for (const c of dataset.cases) {
			const len = (h: typeof c.complete) => h.reduce((n, m) => n + m.content.length, 0);
			expect(len(c.underspecified), c.case_number).toBeLessThan(len(c.complete));
		}
	});

	it('is fully classified by the example category map too', async () => {
		const categories = parseCategoryMap(readFileSync('static/sample/categories-example.json'));
		const withMap = await loadDataset(sampleBytes, { categories });
		expect(withMap.ok && withMap.warnings).toEqual([]);
	});
});

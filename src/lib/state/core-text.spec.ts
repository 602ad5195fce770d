import { afterEach, describe, expect, it } from 'vitest';
import { loadDataset, type DatasetProblem } from '$lib/core/dataset/load';
import { coded } from '$lib/core/said';
import { overwriteGetLocale, type Locale } from '$lib/paraglide/runtime';
import { datasetBytes, validCase } from '../../../tests/fixtures/datasets/factory';
import { coreText, coreTexts, problemField, problemLine, problemMessage } from './core-text.svelte';

const inLocale = (locale: Locale) => overwriteGetLocale(() => locale);
afterEach(() => inLocale('en'));

async function aProblem(): Promise<DatasetProblem> {
	const result = await loadDataset(datasetBytes([validCase(1, { focal_point: 7 })]));
	if (result.ok) throw new Error('expected a problem');
	return result.problems[0];
}

describe('the core texts, loaded on demand', () => {
	it('shows the English sentence until the messages are loaded, then Chinese; English never needs them', async () => {
		const problem = await aProblem();
		const said = coded('category_map_not_json', { detail: 'x' });
		expect(coreTexts.module).toBeNull();
		inLocale('zh-CN');
		expect(coreText('the English', said)).toBe('the English');
		expect(problemLine(problem)).toBe(problem.text);
		expect(problemMessage(problem)).toBe(problem.message);
		expect(problemField('complete history')).toBe('complete history');

		await coreTexts.load();
		expect(coreText('the English', said)).toMatch(/类别映射/);
		expect(problemLine(problem)).toMatch(/案例 #0/);
		expect(problemMessage(problem)).not.toBe(problem.message);
		expect(problemField('complete history')).not.toBe('complete history');

		inLocale('en');
		expect(coreText('the English', said)).toBe('the English');
		expect(problemLine(problem)).toBe(problem.text);
	});
});

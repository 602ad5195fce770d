import { describe, expect, it } from 'vitest';
import { UsageError } from '../lib/core/errors';
import { readCategoryFile, readValidDataset } from './dataset-file';

describe('readValidDataset', () => {
	it('returns the dataset of a valid file', async () => {
		const { dataset, warnings } = await readValidDataset('static/sample/lexpilot-sample.json');
		expect(dataset.cases.length).toBe(14);
		expect(dataset.fileName).toBe('static/sample/lexpilot-sample.json');
		expect(warnings).toEqual([]);
	});

	it('throws one UsageError listing every problem, so a generation command exits 2 before any call', async () => {
		const error = await readValidDataset('tests/fixtures/datasets/broken.json', {
			label: 'broken.json'
		}).catch((e: unknown) => e);
		expect(error).toBeInstanceOf(UsageError);
		const lines = (error as Error).message.split('\n');
		expect(lines[0]).toBe('broken.json is not a valid LexPilot dataset (7 problems):');
		expect(lines).toHaveLength(8);
	});

	it('applies a history-field mapping and a category map file', async () => {
		const { dataset } = await readValidDataset('tests/fixtures/datasets/unnamed-fields.json', {
			historyFields: { complete: 'dialogue_a', underspecified: 'dialogue_b' },
			categoriesPath: 'static/sample/categories-example.json'
		});
		expect(dataset.historyFields).toEqual({ complete: 'dialogue_a', underspecified: 'dialogue_b' });
		expect(dataset.summary.classes).toEqual({ 金钱债务: 1, 家事: 1 });
	});
});

describe('readCategoryFile', () => {
	it.each([
		['missing.json', 'category map missing.json not found (check --categories)'],
		['static/sample', 'category map static/sample is a folder; --categories needs a file'],
		['static/sample/README.md', 'static/sample/README.md: category map: not valid JSON']
	])('%s → %s', async (path, message) => {
		await expect(readCategoryFile(path)).rejects.toThrow(message);
	});
});

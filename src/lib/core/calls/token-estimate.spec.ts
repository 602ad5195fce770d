import { describe, expect, it } from 'vitest';
import { loadDataset } from '../dataset/load';
import { DEFAULT_PROMPT_PACK, fillTemplate } from '../prompts';
import { datasetBytes, validCase } from '../../../../tests/fixtures/datasets/factory';
import { renderHistory } from '../dataset/render';
import { datasetTokensPerCall, textTokens, TOKENS_PER_CHAR } from './token-estimate';

describe('tokens estimated from the dataset', () => {
	it.each([
		['', 0],
		['abcd', Math.ceil(4 * TOKENS_PER_CHAR.other)],
		['原告诉称', Math.ceil(4 * TOKENS_PER_CHAR.cjk)],
		['原告：ok。', Math.ceil(4 * TOKENS_PER_CHAR.cjk + 2 * TOKENS_PER_CHAR.other)],
		['😀', Math.ceil(TOKENS_PER_CHAR.other)]
	])('counts %j as %i tokens, Chinese and other characters at their factors', (text, n) => {
		expect(textTokens(text)).toBe(n);
	});

	it('fills each role’s prompts through the pack; answers run from none to max_tokens', async () => {
		const loaded = await loadDataset(datasetBytes([validCase(1), validCase(2)]));
		if (!loaded.ok) throw new Error('the factory dataset loads');
		const est = datasetTokensPerCall(loaded.dataset.cases, DEFAULT_PROMPT_PACK, 500)!;
		// The evaluated model's first answer on the complete history is one of its prompts.
		const a1 = textTokens(
			fillTemplate(DEFAULT_PROMPT_PACK, 'lexawn', {
				history: renderHistory(loaded.dataset.cases[0].complete)
			})
		);
		expect(est.evaluated.min.prompt).toBeGreaterThanOrEqual(a1 * 0.5);
		expect(est.evaluated.min.completion).toBe(0);
		expect(est.evaluated.max.completion).toBe(500);
		// The evaluated model's prompts hold no model answer; every judge prompt holds one.
		expect(est.evaluated.max.prompt).toBe(est.evaluated.min.prompt);
		expect(est.judge.max.prompt).toBeCloseTo(est.judge.min.prompt + 500, 6);
		expect(est.user.min.prompt).toBeGreaterThan(0);
		expect(datasetTokensPerCall([], DEFAULT_PROMPT_PACK, 500)).toBeNull();
	});
});

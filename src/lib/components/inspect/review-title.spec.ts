import { afterEach, describe, expect, it } from 'vitest';
import { overwriteGetLocale, type Locale } from '$lib/paraglide/runtime';
import type { DecisionId } from '$lib/core/agreement/decisions';
import { reviewWhat } from './review-title';

const inLocale = (locale: Locale) => overwriteGetLocale(() => locale);
afterEach(() => inLocale('en'));

const base: DecisionId = {
	run_id: 'r',
	model_dir: 'm',
	stage: 'ljp-gold',
	case_number: 1,
	history_type: null,
	round: null,
	claim: 0
};

describe('what a review decision is about', () => {
	it('names the LJP setup as the rest of the interface does, in both languages', () => {
		expect(reviewWhat(base)).toBe('LJP verdict of claim 1 (Gold)');
		inLocale('zh-CN');
		expect(reviewWhat(base)).toBe('LJP：诉讼请求 1 的判决（Gold）');
		expect(reviewWhat({ ...base, stage: 'ljp-direct' })).toContain('（Direct）');
		expect(reviewWhat({ ...base, stage: 'ljp-interaction', claim: 2 })).toContain(
			'诉讼请求 3 的判决（Interaction）'
		);
	});

	it('names an LCA history in the page language, never by its code', () => {
		const lca: DecisionId = { ...base, stage: 'lca', claim: null };
		inLocale('zh-CN');
		const complete = reviewWhat({ ...lca, history_type: 'complete' });
		const under = reviewWhat({ ...lca, history_type: 'underspecified' });
		expect(complete).toContain('完整历史');
		expect(under).toContain('信息缺失历史');
		expect(complete + under).not.toMatch(/complete|underspecified/);
	});

	it('says which DCG round', () => {
		expect(reviewWhat({ ...base, stage: 'dcg', claim: null, round: 2 })).toContain('round 2');
	});
});

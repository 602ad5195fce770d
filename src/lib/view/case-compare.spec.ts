import { describe, expect, it } from 'vitest';
import {
	CATEGORIES,
	claimsOf,
	records,
	type Spec
} from '../../../tests/fixtures/inspect/case-records';
import { compareCase } from './case-compare';
import { caseView } from './case-view';

const A: Spec = {
	n: 'K1',
	cause: '民间借贷纠纷',
	lca: { complete: 'judgment', underspecified: 'clarification' },
	dcg: ['是', '否'],
	claims: claimsOf(['支持', '驳回'], ['支持', '驳回'], ['支持', '支持'], ['支持', '驳回']),
	stop: 'judgment',
	response: '应当返还借款。'
};
const view = (spec: Spec) => caseView(String(spec.n), records([spec]), null, CATEGORIES);

describe('compareCase', () => {
	it('finds no difference between a run and an identical repetition', () => {
		const c = compareCase(view(A), view(A));
		expect(c.differences).toEqual([]);
		// 2 LCA labels, the stop, 2 DCG labels, DCG success, 2 claims × 3 setups.
		expect(c.compared).toBe(12);
		expect(c.firstResponses.map((r) => [r.label, r.text])).toEqual([
			['same', 'same'],
			['same', 'same']
		]);
		expect(c.ljp.claims.map((r) => r.match)).toEqual([
			{ direct: 'same', gold: 'same', interaction: 'same' },
			{ direct: 'same', gold: 'same', interaction: 'same' }
		]);
	});

	it('marks each label, stop, success and verdict that differs, in page order', () => {
		const b = view({
			...A,
			lca: { complete: 'clarification', underspecified: 'clarification' },
			dcg: ['否', '否'],
			claims: { ...A.claims!, direct: ['驳回', '驳回'], interaction: ['支持', '部分支持'] },
			stop: 'budget',
			response: '请补充借条。'
		});
		const c = compareCase(view(A), b);
		expect(c.differences).toEqual([
			{ kind: 'lca', historyType: 'complete' },
			{ kind: 'stop' },
			{ kind: 'dcg-label', round: 1 },
			{ kind: 'dcg-success' },
			{ kind: 'verdict', setup: 'direct', claim: 0 },
			{ kind: 'verdict', setup: 'interaction', claim: 1 }
		]);
		expect(c.firstResponses[0]).toMatchObject({ label: 'differs', text: 'differs' });
		expect(c.firstResponses[1]).toMatchObject({ label: 'same', text: 'same' });
		expect(c.dcg.success).toEqual({ a: true, b: false, match: 'differs' });
		expect(c.dcg.questions[1].label).toEqual({ a: '否', b: '否', match: 'same' });
		expect(c.ljp.claims[0]).toMatchObject({
			claim: '诉请1',
			gold: '支持',
			a: { direct: '支持' },
			b: { direct: '驳回' }
		});
	});

	it('says which run lacks a stage, and compares nothing there', () => {
		const genOnly = view({ n: 'K1', cause: A.cause, lca: A.lca });
		const c = compareCase(view(A), genOnly);
		expect(c.differences).toEqual([]);
		expect(c.compared).toBe(2);
		expect(c.interaction.stop).toBe('only-a');
		expect(c.dcg.success.match).toBe('only-a');
		expect(c.ljp.claims[0].match).toEqual({
			direct: 'only-a',
			gold: 'only-a',
			interaction: 'only-a'
		});
		expect(compareCase(genOnly, genOnly).dcg.success.match).toBe('missing');
	});

	it('refuses to pair verdicts when the runs list other claims for the case', () => {
		const other = view({ ...A, claims: { gold: ['支持'], direct: ['支持'] } });
		const c = compareCase(view(A), other);
		expect(c.ljp.claimsDiffer).toBe(true);
		expect(c.ljp.claims).toEqual([]);
	});
});

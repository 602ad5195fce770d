import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lcaConfusion, lcaMetrics } from './lca';

type H = 'complete' | 'underspecified';
type L = 'clarification' | 'judgment';
const rec = (history_type: H, label: L) => ({ history_type, label });
/** n records of one kind. */
const many = (n: number, h: H, l: L) => Array.from({ length: n }, () => rec(h, l));

describe('lcaMetrics', () => {
	it.each([
		{
			name: 'fixture run1: TP=2 FN=2 FP=1 TN=3',
			records: [
				...many(2, 'underspecified', 'clarification'),
				...many(2, 'underspecified', 'judgment'),
				...many(1, 'complete', 'clarification'),
				...many(3, 'complete', 'judgment')
			],
			// F1_U = 2·2/(2·2+1+2) = 4/7; F1_C = 2·3/(2·3+1+2) = 6/9 = 2/3;
			// Macro = (4/7 + 2/3)/2 = 13/21; Acc_C = 3/(3+1) = 3/4; Acc_U = 2/(2+2) = 1/2
			expected: { f1_u: 4 / 7, f1_c: 2 / 3, macro_f1: 13 / 21, acc_c: 3 / 4, acc_u: 1 / 2, n: 8 }
		},
		{
			name: 'all correct',
			records: [...many(5, 'underspecified', 'clarification'), ...many(5, 'complete', 'judgment')],
			expected: { f1_u: 1, f1_c: 1, macro_f1: 1, acc_c: 1, acc_u: 1, n: 10 }
		},
		{
			name: 'all wrong',
			records: [...many(5, 'underspecified', 'judgment'), ...many(5, 'complete', 'clarification')],
			// TP = TN = 0, FP = FN = 5: both F1 = 0/10 = 0, both accuracies 0/5
			expected: { f1_u: 0, f1_c: 0, macro_f1: 0, acc_c: 0, acc_u: 0, n: 10 }
		},
		{
			name: 'no records: every rate undefined',
			records: [],
			expected: { f1_u: null, f1_c: null, macro_f1: null, acc_c: null, acc_u: null, n: 0 }
		},
		{
			name: 'only complete histories, all answered: F1_U and Acc_U undefined, so Macro-F1 too',
			records: many(3, 'complete', 'judgment'),
			// TP = FP = FN = 0 → F1_U = 0/0; TP + FN = 0 → Acc_U = 0/0; F1_C = 6/6
			expected: { f1_u: null, f1_c: 1, macro_f1: null, acc_c: 1, acc_u: null, n: 3 }
		}
	])('$name', ({ records, expected }) => {
		const m = lcaMetrics(records);
		for (const [key, value] of Object.entries(expected)) {
			if (value === null) expect(m[key as keyof typeof m], key).toBeNull();
			else expect(m[key as keyof typeof m], key).toBeCloseTo(value, 12);
		}
	});

	it.each([1, 2, 17, 432])(
		'always-ask and always-answer each score exactly 1/3 over %i paired cases',
		(cases) => {
			const paired = (label: L) => [
				...many(cases, 'complete', label),
				...many(cases, 'underspecified', label)
			];
			// Always ask: TP = FP = N, FN = TN = 0 → F1_U = 2N/3N = 2/3, F1_C = 0 → Macro = 1/3.
			expect(lcaMetrics(paired('clarification')).macro_f1).toBeCloseTo(1 / 3, 15);
			// Always answer: TN = FN = N → F1_C = 2/3, F1_U = 0 → Macro = 1/3.
			expect(lcaMetrics(paired('judgment')).macro_f1).toBeCloseTo(1 / 3, 15);
			expect(lcaMetrics(paired('clarification')).acc_u).toBe(1);
			expect(lcaMetrics(paired('judgment')).acc_c).toBe(1);
		}
	);

	it('counts the confusion matrix with underspecified as the positive class', () => {
		expect(
			lcaConfusion([
				rec('underspecified', 'clarification'),
				rec('underspecified', 'judgment'),
				rec('complete', 'clarification'),
				rec('complete', 'judgment'),
				rec('complete', 'judgment')
			])
		).toEqual({ tp: 1, fn: 1, fp: 1, tn: 2 });
	});
});

/**
 * sklearn-style F1 of one class as the positive label: precision and recall first, 0 when
 * their sum is 0, undefined only when the class is neither present nor predicted.
 */
function sklearnF1(truth: boolean[], predicted: boolean[]): number | null {
	const pairs = truth.map((t, i) => [t, predicted[i]] as const);
	const actual = pairs.filter(([t]) => t).length;
	const called = pairs.filter(([, p]) => p).length;
	if (actual === 0 && called === 0) return null;
	const hits = pairs.filter(([t, p]) => t && p).length;
	const precision = called === 0 ? 0 : hits / called;
	const recall = actual === 0 ? 0 : hits / actual;
	return precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
}

describe('lcaMetrics against sklearn-style definitions', () => {
	const record = fc.record({
		history_type: fc.constantFrom<H>('complete', 'underspecified'),
		label: fc.constantFrom<L>('clarification', 'judgment')
	});

	it('agrees to 1e-9 on random label sets', () => {
		fc.assert(
			fc.property(fc.array(record, { maxLength: 60 }), (records) => {
				const m = lcaMetrics(records);
				const underspecified = records.map((r) => r.history_type === 'underspecified');
				const asked = records.map((r) => r.label === 'clarification');
				const f1u = sklearnF1(underspecified, asked);
				const f1c = sklearnF1(
					underspecified.map((u) => !u),
					asked.map((a) => !a)
				);
				const close = (a: number | null, b: number | null) =>
					a === null || b === null ? a === b : Math.abs(a - b) < 1e-9;
				const recallOf = (cls: boolean) => {
					const idx = underspecified.flatMap((u, i) => (u === cls ? [i] : []));
					return idx.length === 0 ? null : idx.filter((i) => asked[i] === cls).length / idx.length;
				};
				expect(close(m.f1_u, f1u)).toBe(true);
				expect(close(m.f1_c, f1c)).toBe(true);
				expect(close(m.macro_f1, f1u === null || f1c === null ? null : (f1u + f1c) / 2)).toBe(true);
				expect(close(m.acc_u, recallOf(true))).toBe(true);
				expect(close(m.acc_c, recallOf(false))).toBe(true);
				expect(m.n).toBe(records.length);
			})
		);
	});
});

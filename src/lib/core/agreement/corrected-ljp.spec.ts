import { describe, expect, it } from 'vitest';
import { VERDICTS, type Verdict } from '../dataset/types';
import { quadraticWeightedKappa } from '../metrics/ljp';
import type { LjpResultRecord } from '../records';
import { correctedLjp, misclassification } from './corrected-ljp';
import { listDecisions } from './decisions';
import type { LabelPair } from './kappa';
import { correctTable, invert3, tableAccuracy, tableQwk, type Table } from './ljp-table';

const RUN = { runId: 'r1', modelDir: 'm-12345678' };
const [S, P, R] = VERDICTS;

/** One LJP record a claim per (gold, predicted) pair. */
function records(gold: Verdict[], predicted: Verdict[]): LjpResultRecord[] {
	return gold.map((g, i) => ({
		case_number: i + 1,
		cause_of_action: '合同纠纷',
		claims: ['诉讼请求'],
		predicted: [predicted[i]],
		gold: [g],
		input_sha256: 'a'.repeat(64)
	}));
}

/** A fixed run: 30 claims whose true predictions are mostly right. */
const GOLD: Verdict[] = Array.from({ length: 30 }, (_, i) => VERDICTS[i % 3]);
const TRUE_PRED: Verdict[] = GOLD.map((g, i) =>
	i % 7 === 0 ? VERDICTS[(VERDICTS.indexOf(g) + 1) % 3] : g
);

/** `[judge, reviewer]` pairs: `n` reviews of each verdict, the judge's label by `judge`. */
function reviewed(n: number, judge: (v: Verdict) => Verdict): LabelPair[] {
	return VERDICTS.flatMap((v) => Array.from({ length: n }, (): LabelPair => [judge(v), v]));
}

const accuracy = (g: Verdict[], p: Verdict[]) => g.filter((x, i) => x === p[i]).length / g.length;

describe('corrected LJP (matrix method)', () => {
	it('computes QWK and accuracy of a table as metrics/ljp does from verdict lists', () => {
		const t: Table = [
			[0, 0, 0],
			[0, 0, 0],
			[0, 0, 0]
		];
		GOLD.forEach((g, i) => t[VERDICTS.indexOf(g)][VERDICTS.indexOf(TRUE_PRED[i])]++);
		expect(tableQwk(t)).toBeCloseTo(quadraticWeightedKappa(GOLD, TRUE_PRED)!, 12);
		expect(tableAccuracy(t)).toBeCloseTo(accuracy(GOLD, TRUE_PRED), 12);
	});

	it('inverts a 3 × 3 matrix (M · M⁻¹ = I) and refuses a singular one', () => {
		const m = [
			[0.8, 0.2, 0],
			[0.1, 0.8, 0.1],
			[0, 0.25, 0.75]
		];
		const inv = invert3(m)!;
		for (let i = 0; i < 3; i++)
			for (let j = 0; j < 3; j++)
				expect(m[i].reduce((a, x, k) => a + x * inv[k][j], 0)).toBeCloseTo(i === j ? 1 : 0, 12);
		expect(
			invert3([
				[1, 0, 0],
				[0.5, 0.5, 0],
				[0.5, 0.5, 0]
			])
		).toBeNull();
	});

	it('undoes a known error matrix: the observed table o = t · M comes back to t', () => {
		const m = [
			[0.8, 0.2, 0],
			[0.1, 0.8, 0.1],
			[0, 0.25, 0.75]
		];
		const truth: Table = [
			[20, 5, 1],
			[4, 12, 4],
			[0, 3, 11]
		];
		// The forward computation, cell by cell.
		const observed = truth.map((row) =>
			[0, 1, 2].map((j) => row[0] * m[0][j] + row[1] * m[1][j] + row[2] * m[2][j])
		);
		const back = correctTable(observed, m)!;
		back.forEach((row, i) => row.forEach((x, j) => expect(x).toBeCloseTo(truth[i][j], 9)));
	});

	it('a perfect judge leaves QWK and accuracy as they are', () => {
		const decisions = listDecisions(RUN, { LJP_direct: records(GOLD, TRUE_PRED) }, {});
		const got = correctedLjp(
			decisions,
			reviewed(4, (v) => v),
			{ resamples: 200 }
		)!;
		expect(got.direct!.qwk.status).toBe('ok');
		expect(got.direct!.qwk.value).toBeCloseTo(quadraticWeightedKappa(GOLD, TRUE_PRED)!, 12);
		expect(got.direct!.accuracy.value).toBeCloseTo(accuracy(GOLD, TRUE_PRED), 12);
		expect(got.direct!.qwk.ci95).toEqual([got.direct!.qwk.value, got.direct!.qwk.value]);
	});

	it('a judge that swaps 部分支持 and 驳回 is undone: the true predictions’ QWK', () => {
		const swap = (v: Verdict): Verdict => (v === P ? R : v === R ? P : v);
		const judged = TRUE_PRED.map(swap);
		const decisions = listDecisions(RUN, { LJP_gold: records(GOLD, judged) }, {});
		const got = correctedLjp(decisions, reviewed(4, swap), { resamples: 200 })!;
		expect(quadraticWeightedKappa(GOLD, judged)).not.toBeCloseTo(
			quadraticWeightedKappa(GOLD, TRUE_PRED)!,
			2
		);
		expect(got.gold!.qwk.value).toBeCloseTo(quadraticWeightedKappa(GOLD, TRUE_PRED)!, 12);
		expect(got.gold!.accuracy.value).toBeCloseTo(accuracy(GOLD, TRUE_PRED), 12);
		expect(got.direct).toBeUndefined();
	});

	it('says "too small" under 10 reviews or under 3 reviews of a verdict', () => {
		const decisions = listDecisions(RUN, { LJP_direct: records(GOLD, TRUE_PRED) }, {});
		const fewOfOne = [
			...reviewed(5, (v) => v).filter(([, p]) => p !== R),
			[R, R],
			[R, R]
		] as LabelPair[];
		expect(correctedLjp(decisions, fewOfOne)!.direct!.qwk.status).toBe('too_small');
		expect(correctedLjp(decisions, reviewed(3, (v) => v).slice(0, 9))!.direct!.qwk.status).toBe(
			'too_small'
		);
		expect(misclassification([[S, S]])).toBeNull();
	});
});

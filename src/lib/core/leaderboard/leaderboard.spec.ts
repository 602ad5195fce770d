import { describe, expect, it } from 'vitest';
import {
	syntheticPlan,
	syntheticRecords,
	syntheticRun
} from '../../../../tests/support/leaderboard-runs';
import { bootstrapRun } from '../metrics/bootstrap';
import { dcgMetrics } from '../metrics/dcg';
import { lcaMetrics } from '../metrics/lca';
import { ljpMetrics } from '../metrics/ljp';
import { Prng, scopeSeed } from '../metrics/prng';
import type { CaseRecords } from '../metrics/case-table';
import { english } from '../voice';
import { LEADERBOARD_COLUMNS, type ColumnKey } from '../protocol/metrics';
import { holm } from './holm';
import { computeLeaderboard } from './leaderboard';

const SKILLS = { strong: 0.85, mid: 0.7, mid2: 0.705, weak: 0.5 };

/** Independent: a column's value from records, through the metric functions of PROTOCOL.md §7. */
function columnOf(records: CaseRecords, column: ColumnKey): number | null {
	switch (column) {
		case 'lca_macro_f1':
			return lcaMetrics(records.LCA_results!).macro_f1;
		case 'lca_acc_c':
			return lcaMetrics(records.LCA_results!).acc_c;
		case 'lca_acc_u':
			return lcaMetrics(records.LCA_results!).acc_u;
		case 'dcg_success':
			return dcgMetrics(records.DCG_results!).success_rate;
		case 'ljp_direct_qwk':
			return ljpMetrics(records.LJP_direct!).qwk;
		case 'ljp_gold_qwk':
			return ljpMetrics(records.LJP_gold!).qwk;
		case 'ljp_interaction_qwk':
			return ljpMetrics(records.LJP_interaction!).qwk;
	}
}

/** The records of the drawn cases (a case drawn twice counts twice). */
function drawRecords(records: CaseRecords, drawn: number[]): CaseRecords {
	const pick = <R extends { case_number: string | number }>(list: readonly R[]) =>
		drawn.flatMap((i) => list.filter((r) => String(r.case_number) === String(i + 1)));
	return {
		LCA_results: pick(records.LCA_results!),
		DCG_results: pick(records.DCG_results!),
		LJP_direct: pick(records.LJP_direct!),
		LJP_gold: pick(records.LJP_gold!),
		LJP_interaction: pick(records.LJP_interaction!)
	};
}

const avg = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const sd1 = (xs: number[]) =>
	Math.sqrt(xs.reduce((a, x) => a + (x - avg(xs)) ** 2, 0) / (xs.length - 1));
/** numpy's default percentile (linear, type 7). */
function percentile(values: number[], q: number): number {
	const s = [...values].sort((a, b) => a - b);
	const h = (s.length - 1) * q;
	const lo = Math.floor(h);
	return s[lo] + (h - lo) * (s[Math.min(lo + 1, s.length - 1)] - s[lo]);
}

describe('leaderboard statistics against independent computations', () => {
	const n = 24;
	const reps = 3;
	const resamples = 200;
	const seed = 7;
	const runs = syntheticPlan(SKILLS, reps, n);
	const board = computeLeaderboard(runs, { bootstrap: { resamples, seed } }).boards[0];
	const models = Object.keys(SKILLS).sort(); // rows are in model id order
	const records = Object.fromEntries(
		Object.entries(SKILLS).map(([model, skill]) => [
			model,
			Array.from({ length: reps }, (_, r) =>
				syntheticRecords({ model, runId: `run${r + 1}`, skill }, n)
			)
		])
	);
	// The case draws of the leaderboard: one multiset per resample, the same for every model.
	const rng = new Prng(scopeSeed(seed, ''));
	const draws = Array.from({ length: resamples }, () => {
		const times = new Array(n).fill(0);
		for (let j = 0; j < n; j++) times[rng.below(n)]++;
		return times.flatMap((t, i) => new Array(t).fill(i));
	});
	const resampled = Object.fromEntries(
		models.map((model) => [
			model,
			Object.fromEntries(
				LEADERBOARD_COLUMNS.map((column) => [
					column,
					draws.map((drawn) =>
						avg(records[model].map((rec) => columnOf(drawRecords(rec, drawn), column)!))
					)
				])
			)
		])
	);

	it('gives one row per model with n runs, mean and sample SD (ddof 1) of each run’s figure', () => {
		expect(board.overall.rows.map((r) => [r.id, r.n])).toEqual(models.map((m) => [m, reps]));
		for (const row of board.overall.rows) {
			for (const column of LEADERBOARD_COLUMNS) {
				const values = records[row.model].map((rec) => columnOf(rec, column)!);
				expect(row.cells[column].mean).toBeCloseTo(avg(values), 12);
				expect(row.cells[column].sd).toBeCloseTo(sd1(values), 12);
				expect(row.cells[column].n_defined).toBe(reps);
			}
		}
	});

	it('resamples cases, averages each model’s runs, and takes the percentile interval', () => {
		let collapsed = 0;
		for (const row of board.overall.rows) {
			for (const column of LEADERBOARD_COLUMNS) {
				const values = resampled[row.model][column];
				const [low, high] = [percentile(values, 0.025), percentile(values, 0.975)];
				const cell = row.cells[column];
				if (high - low > 1e-12) {
					expect(cell.ci_method).toBe('percentile');
					expect(cell.ci95![0]).toBeCloseTo(low, 12);
					expect(cell.ci95![1]).toBeCloseTo(high, 12);
					continue;
				}
				// Collapsed to a point (every run right on every case): Wilson's score interval
				// over the 24 cases for a share, computed here from its formula; none for F1 or QWK.
				collapsed++;
				if (['lca_acc_c', 'lca_acc_u', 'dcg_success'].includes(column)) {
					const [p, z] = [cell.mean!, 1.959963984540054];
					const centre = (p + z ** 2 / (2 * n)) / (1 + z ** 2 / n);
					const half = (z * Math.sqrt((p * (1 - p)) / n + z ** 2 / (4 * n * n))) / (1 + z ** 2 / n);
					expect(cell.ci_method).toBe('wilson');
					expect(cell.ci95![0]).toBeCloseTo(centre - half, 12);
					expect(cell.ci95![1]).toBeCloseTo(Math.min(1, centre + half), 12);
					expect(cell.ci95![1] - cell.ci95![0]).toBeGreaterThan(0.05);
				} else expect([cell.ci95, cell.ci_method]).toEqual([null, null]);
			}
		}
		// The strong model is right on every case of some share in all three runs.
		expect(collapsed).toBeGreaterThan(0);
	});

	it('ranks every resample with the same cases for all models and takes rank percentiles', () => {
		for (const column of LEADERBOARD_COLUMNS) {
			const ranks = models.map(() => [] as number[]);
			for (let b = 0; b < resamples; b++) {
				const v = models.map((m) => resampled[m][column][b]);
				v.forEach((x, k) => ranks[k].push(1 + v.filter((y) => y - x > 1e-12).length));
			}
			board.overall.rows.forEach((row, k) => {
				const sorted = ranks[k].sort((a, b) => a - b);
				const at = (q: number) => sorted[Math.max(1, Math.ceil(q * resamples)) - 1];
				expect(row.cells[column].rank_ci95).toEqual([at(0.025), at(0.975)]);
			});
		}
	});

	it('tests each pair on the same resamples and Holm-corrects within a column', () => {
		const column = 'lca_acc_u';
		const pairs = board.overall.pairs.filter((p) => p.column === column);
		expect(pairs).toHaveLength(6);
		const raw = pairs.map((p) => {
			const d = resampled[p.b][column].map((x, b) => x - resampled[p.a][column][b]);
			const opposite = d.filter((x) => Math.abs(x) > 1e-12 && x > 0 !== p.diff > 0).length;
			const ties = d.filter((x) => Math.abs(x) <= 1e-12).length;
			return Math.min(1, (2 * (opposite + ties / 2 + 1)) / (resamples + 1));
		});
		pairs.forEach((p, i) => expect(p.p).toBeCloseTo(raw[i], 12));
		const adjusted = holm(raw);
		pairs.forEach((p, i) => {
			expect(p.p_holm).toBeCloseTo(adjusted[i]!, 12);
			expect(p.tied).toBe(adjusted[i]! >= 0.05);
		});
	});
});

describe('leaderboard', () => {
	it('ties close models and separates distant ones (432 cases, 5 runs each)', () => {
		const board = computeLeaderboard(syntheticPlan(SKILLS, 5, 432), {
			bootstrap: { resamples: 400 },
			classes: false
		}).boards[0];
		const cell = (id: string) => board.overall.rows.find((r) => r.id === id)!.cells.lca_acc_u;
		expect(cell('mid').tied_with).toContain('mid2');
		expect(cell('strong').tied_with).toEqual([]);
		expect(cell('strong').rank).toBe(1);
		expect(cell('weak').rank_ci95).toEqual([4, 4]);
	});

	it('gives a model of one run exactly that run’s case-bootstrap interval', () => {
		const run = syntheticRun({ model: 'solo', runId: 'run1', skill: 0.7 }, 40);
		const board = computeLeaderboard([run], { bootstrap: { resamples: 300, seed: 3 } }).boards[0];
		const own = bootstrapRun(run.table, { resamples: 300, seed: 3 });
		expect(board.overall.rows[0].cells.lca_macro_f1.ci95).toEqual(own.ci95.lca!.macro_f1);
		expect(board.overall.rows[0].cells.ljp_gold_qwk.ci95).toEqual(own.ci95.ljp.gold!.qwk);
		for (const cls of Object.keys(own.by_class)) {
			expect(board.by_class[cls].rows[0].cells.dcg_success.ci95).toEqual(
				own.by_class[cls].dcg!.success_rate
			);
		}
	});

	it('is deterministic for a seed and moves with it', () => {
		const runs = syntheticPlan({ a: 0.6, b: 0.65 }, 2, 30);
		const one = JSON.stringify(
			computeLeaderboard(runs, { bootstrap: { resamples: 100, seed: 1 } })
		);
		expect(
			JSON.stringify(computeLeaderboard(runs, { bootstrap: { resamples: 100, seed: 1 } }))
		).toBe(one);
		expect(
			JSON.stringify(computeLeaderboard(runs, { bootstrap: { resamples: 100, seed: 2 } }))
		).not.toBe(one);
	});

	it('never shares a row between other settings, and says which fields differ', () => {
		const runs = [
			syntheticRun({ model: 'm', runId: 'run1', skill: 0.7 }, 12),
			syntheticRun({ model: 'm', runId: 'run2', skill: 0.7 }, 12),
			syntheticRun(
				{
					model: 'm',
					runId: 'hot1',
					skill: 0.7,
					manifest: {
						settings: {
							...syntheticRun({ model: 'm', runId: 'x', skill: 0 }, 1).manifest.settings,
							temperature: 0.9
						}
					}
				},
				12
			)
		];
		const rows = computeLeaderboard(runs, { bootstrap: { resamples: 50 } }).boards[0].overall.rows;
		expect(rows.map((r) => [r.id, r.run_ids, r.differs])).toEqual([
			['m', ['hot1'], []],
			['m #2', ['run1', 'run2'], ['settings.temperature']]
		]);
	});

	it('puts runs of other cases on a board of their own, naming the field', () => {
		const runs = [
			syntheticRun({ model: 'a', runId: 'run1', skill: 0.7 }, 12),
			syntheticRun({ model: 'b', runId: 'run1', skill: 0.7 }, 14)
		];
		const lb = computeLeaderboard(runs, { bootstrap: { resamples: 50 } });
		expect(lb.boards.map((b) => b.overall.rows.map((r) => r.id))).toEqual([['a'], ['b']]);
		expect(lb.notes.map((n) => english(n))).toEqual([
			'2 separate leaderboards: their runs differ in dataset.selected_case_numbers, so their models are not ranked against each other'
		]);
	});

	it('gives no interval and no test under 10 cases, and claims no tie without a test', () => {
		const board = computeLeaderboard(syntheticPlan({ a: 0.9, b: 0.1 }, 2, 6)).boards[0];
		const cell = board.overall.rows[0].cells.lca_acc_u;
		expect([cell.ci95, cell.rank_ci95, cell.rank]).toEqual([null, null, 1]);
		expect(board.overall.pairs.length).toBeGreaterThan(0);
		expect(board.overall.pairs.every((p) => p.p === null && p.tied === null)).toBe(true);
		for (const row of board.overall.rows) {
			for (const c of LEADERBOARD_COLUMNS) {
				expect(row.cells[c].tied_with).toEqual([]);
				expect(row.cells[c].untested_with).toEqual([row.id === 'a' ? 'b' : 'a']);
			}
		}
		expect(english(board.overall.untested!)).toBe(
			'no paired test was run: 6 cases, fewer than the 10 a test needs, so no model is marked as tied with another'
		);
	});

	it('says why a class ranked by means only has no test, and that a tested scope has one', () => {
		const board = computeLeaderboard(syntheticPlan({ a: 0.9, b: 0.4 }, 2, 40), {
			bootstrap: { resamples: 50 },
			classIntervals: ['合同纠纷']
		}).boards[0];
		expect(board.overall.untested).toBeNull();
		expect(board.by_class['合同纠纷'].untested).toBeNull();
		const other = board.by_class['婚姻家庭纠纷'];
		expect(english(other.untested!)).toBe(
			"no paired test was run: this class's intervals were not computed"
		);
		expect(other.pairs.every((p) => p.tied === null)).toBe(true);
	});

	it('ranks a class without intervals when only means are asked for', () => {
		const board = computeLeaderboard(syntheticPlan({ a: 0.9, b: 0.4 }, 2, 40), {
			bootstrap: { resamples: 50 },
			classIntervals: ['合同纠纷']
		}).boards[0];
		expect(board.by_class['合同纠纷'].rows[0].cells.lca_acc_u.ci95).not.toBeNull();
		const other = board.by_class['婚姻家庭纠纷'].rows[0].cells.lca_acc_u;
		expect([other.ci95, other.rank]).toEqual([null, 1]);
	});
});

describe('holm', () => {
	it.each([
		[
			[0.01, 0.04, 0.03, 0.005],
			[0.03, 0.06, 0.06, 0.02]
		],
		[
			[0.5, null, 0.01],
			[0.5, null, 0.02]
		],
		[
			[0.4, 0.6],
			[0.8, 0.8]
		],
		[[], []]
	])('%j → %j', (p, expected) => {
		holm(p).forEach((v, i) =>
			expected[i] === null ? expect(v).toBeNull() : expect(v).toBeCloseTo(expected[i]!, 12)
		);
		expect(holm(p)).toHaveLength(expected.length);
	});
});

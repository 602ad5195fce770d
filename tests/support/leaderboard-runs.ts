/**
 * Synthetic loaded runs for the leaderboard tests and bench: per model a skill in [0, 1], per
 * run its own seeded outcomes, so repetitions differ a little and models differ clearly. Tables
 * are built from records by the real `buildCaseTable`, as the results reader builds them.
 */
import { buildCaseTable, type CaseRecords } from '../../src/lib/core/metrics/case-table';
import { Prng, hashString } from '../../src/lib/core/metrics/prng';
import type { LoadedRun } from '../../src/lib/core/results/compare';
import type { RunReport } from '../../src/lib/core/results/report';
import type { Verdict } from '../../src/lib/core/dataset/types';
import { makeManifest } from './record-factories';

const VERDICTS: Verdict[] = ['支持', '部分支持', '驳回'];
const CAUSES = ['民间借贷纠纷', '离婚纠纷'];
const ALL = { lca: true, dcg: true, ljp: { direct: true, gold: true, interaction: true } };

export interface SyntheticRun {
	model: string;
	runId: string;
	skill: number;
	/** Manifest fields to override (settings, dataset, …). */
	manifest?: Parameters<typeof makeManifest>[1];
}

/** The records of one synthetic run over cases 1…n. */
export function syntheticRecords(run: SyntheticRun, n: number): CaseRecords {
	const rng = new Prng(hashString(`${run.model}|${run.runId}`));
	const hit = () => rng.nextUint32() / 2 ** 32 < run.skill;
	type Mutable = { [F in keyof CaseRecords]-?: NonNullable<CaseRecords[F]>[number][] };
	const records: Mutable = {
		LCA_results: [],
		DCG_results: [],
		LJP_direct: [],
		LJP_gold: [],
		LJP_interaction: []
	};
	for (let i = 1; i <= n; i++) {
		const base = { case_number: String(i), cause_of_action: CAUSES[i % 2] };
		records.LCA_results.push(
			{ ...base, history_type: 'underspecified', label: hit() ? 'clarification' : 'judgment' },
			{ ...base, history_type: 'complete', label: hit() ? 'judgment' : 'clarification' }
		);
		records.DCG_results.push({ ...base, round_labels: [hit() ? '是' : '否', hit() ? '是' : '否'] });
		const gold = Array.from({ length: 1 + (i % 3) }, (_, j) => VERDICTS[(i + j) % 3]);
		for (const file of ['LJP_direct', 'LJP_gold', 'LJP_interaction'] as const) {
			const predicted = gold.map((g) => (hit() ? g : VERDICTS[rng.below(3)]));
			records[file].push({ ...base, gold, predicted });
		}
	}
	return records;
}

/** A loaded run (report fields the leaderboard reads, manifest, case table) of `run`. */
export function syntheticRun(run: SyntheticRun, n: number): LoadedRun {
	const manifest = makeManifest(
		{ runId: run.runId, modelDir: run.model },
		{
			models: { evaluated: run.model, user: 'sim-user', judge: 'sim-judge' },
			...run.manifest,
			dataset: {
				...makeManifest({ runId: run.runId, modelDir: run.model }).dataset,
				n_cases: n,
				selected_case_numbers: Array.from({ length: n }, (_, i) => String(i + 1)),
				...run.manifest?.dataset
			}
		}
	);
	const table = buildCaseTable(
		manifest.dataset.selected_case_numbers,
		syntheticRecords(run, n),
		manifest.categories,
		ALL
	);
	const report = { run_id: run.runId, model: run.model, empty: false, partial: false, calls: null };
	return { run: report as unknown as RunReport, manifest, table };
}

/** `models` × `repetitions` runs (`run1`…), model k of skill `skills[k]`. */
export function syntheticPlan(
	skills: Record<string, number>,
	repetitions: number,
	n: number
): LoadedRun[] {
	return Object.entries(skills).flatMap(([model, skill]) =>
		Array.from({ length: repetitions }, (_, r) =>
			syntheticRun({ model, runId: `run${r + 1}`, skill }, n)
		)
	);
}

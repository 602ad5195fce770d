/**
 * `results --judges A,B`: how two judges of the same saved outputs agree (metrics/README.md,
 * "Judge agreement"). Runs A and B are paired by model folder (B re-judged from A, or both
 * judging the same source); per model and stage: the agreement rate, Cohen's κ with its
 * bootstrap interval and the confusion matrix A × B; over the models: Kendall's τ of each rate's
 * ranking under the two judges, its case-bootstrap interval, and the models that swap places.
 */
import { agreement, type Agreement } from '../agreement/kappa';
import type { BootstrapOptions } from '../metrics/bootstrap';
import type { CaseTable } from '../metrics/case-table';
import { rankStability, type RankStability } from '../metrics/kendall';
import { RATE_SLOTS } from '../metrics/kernel';
import type { EvalRecords } from './completeness';
import { decisionKind, DECISION_STAGES, type DecisionStage } from '../protocol';
import { judgePairs } from './judge-pairs';
import { computeReport } from './report';
import type { LayoutSource } from './source';

export interface JudgesOptions {
	/** The two run ids. */
	a: string;
	b: string;
	/** Only this model (id or folder). */
	model?: string;
	bootstrap?: BootstrapOptions;
}

/** One stage of one model: the agreement of the two judges, and decisions only one run holds. */
export type StageAgreement = Agreement & { unpaired: number };

export interface ModelJudges {
	model: string;
	model_dir: string;
	/** The judge model of run A and of run B. */
	judges: [string, string];
	/** Stages judged in both runs. */
	stages: Partial<Record<DecisionStage, StageAgreement>>;
}

/** τ of one rate (named as in `results --json`: stage and rate). */
export type RateStability = RankStability & { rate: readonly [string, string] };

export interface JudgesReport {
	a: string;
	b: string;
	models: ModelJudges[];
	/** Model folders with run A or run B only. */
	unmatched: string[];
	/** With two models or more: every rate both judges define for at least two models. */
	ranks: RateStability[];
	/** False when the models' runs select different cases: then there is no τ (`ranks` empty). */
	same_cases: boolean;
}

interface Loaded {
	model: string;
	judge: string;
	table: CaseTable;
	records: EvalRecords;
}

async function load(source: LayoutSource, runId: string, model?: string) {
	const runs = new Map<string, Loaded>();
	await computeReport(source, {
		runId,
		model,
		onRun: (run, manifest, table, records) =>
			runs.set(run.model_dir, { model: run.model, judge: manifest.models.judge, table, records })
	});
	return runs;
}

export async function compareJudges(
	source: LayoutSource,
	options: JudgesOptions
): Promise<JudgesReport> {
	const [runsA, runsB] = [
		await load(source, options.a, options.model),
		await load(source, options.b, options.model)
	];
	const dirs = [...runsA.keys()].filter((d) => runsB.has(d)).sort();
	const unmatched = [...new Set([...runsA.keys(), ...runsB.keys()])].filter(
		(d) => !dirs.includes(d)
	);
	const models = dirs.map((dir): ModelJudges => {
		const [a, b] = [runsA.get(dir)!, runsB.get(dir)!];
		const pairs = judgePairs(a.records, b.records);
		const stages: Partial<Record<DecisionStage, StageAgreement>> = {};
		for (const stage of DECISION_STAGES.filter((s) => pairs[s].pairs.length > 0)) {
			const scope = `judges/${dir}/${stage}`;
			const kind = decisionKind(stage);
			const found = agreement(pairs[stage].pairs, kind.labels, {
				...options.bootstrap,
				scope,
				// LJP verdicts are ordered (支持 < 部分支持 < 驳回): QWK beside plain κ.
				ordinal: kind.group === 'ljp'
			});
			stages[stage] = { ...found, unpaired: pairs[stage].unpaired };
		}
		return { model: a.model, model_dir: dir, judges: [a.judge, b.judge], stages };
	});
	const judged = dirs.map((dir) => ({
		model: runsA.get(dir)!.model,
		a: runsA.get(dir)!.table,
		b: runsB.get(dir)!.table
	}));
	const cases = (t: CaseTable) => JSON.stringify(t.case_numbers);
	const same_cases = judged.every(
		(m) => cases(m.a) === cases(judged[0].a) && cases(m.b) === cases(m.a)
	);
	const ranks: RateStability[] = [];
	if (judged.length >= 2 && same_cases) {
		RATE_SLOTS.forEach((rate, slot) => {
			const stability = rankStability(judged, slot, options.bootstrap);
			if (stability.scores.length >= 2) ranks.push({ ...stability, rate });
		});
	}
	return { a: options.a, b: options.b, models, unmatched, ranks, same_cases };
}

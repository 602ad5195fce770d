/**
 * Agreement of a run's reviews (README.md): the judge against each reviewer, and each pair of
 * reviewers on the decisions both reviewed, per stage group and per cause class, each with its
 * disagreements; and the judged metrics corrected by each reviewer's sample.
 */
import { UNCLASSIFIED } from '../dataset/names';
import { orderClasses } from '../metrics/by-class';
import type { CategoryMap } from '../dataset/types';
import { decisionKey } from '../names';
import { correctedMetrics, type CorrectedMetrics } from './corrected-metrics';
import { GROUP_LABELS, STAGE_GROUPS, stageGroup, type StageGroup } from '../protocol';
import type { Decision, DecisionId } from './decisions';
import { agreement, type Agreement, type BootstrapOptions, type LabelPair } from './kappa';
import type { ReviewLine } from './review-line';

/** A decision two raters labelled differently. */
export interface Disagreement {
	decision: DecisionId;
	first: string;
	second: string;
}

export interface ScopeAgreement extends Agreement {
	disagreements: Disagreement[];
}

/** One stage group's agreement overall and per class (only classes with reviews). */
export interface StageAgreement {
	stage: StageGroup;
	overall: ScopeAgreement;
	by_class: Record<string, ScopeAgreement>;
}

export interface RaterComparison {
	/** `judge` or a reviewer's name (as typed: escape it where it is shown). */
	first: string;
	second: string;
	stages: StageAgreement[];
}

export interface ReviewReport {
	reviewers: string[];
	/** The judge against each reviewer, in reviewer order. */
	judge: RaterComparison[];
	/** Each pair of reviewers, on the decisions both reviewed. */
	between: RaterComparison[];
	/** Per reviewer: the run's judged metrics corrected by that reviewer's sample. */
	corrected: {
		reviewer: string;
		overall: CorrectedMetrics;
		by_class: Record<string, CorrectedMetrics>;
	}[];
}

interface Rated {
	decision: DecisionId;
	first: string;
	second: string;
	cls: string;
}

function scope(
	items: readonly Rated[],
	stage: StageGroup,
	options: BootstrapOptions,
	name: string
): ScopeAgreement {
	const pairs: LabelPair[] = items.map((r) => [r.first, r.second]);
	return {
		...agreement(pairs, GROUP_LABELS[stage], { ...options, scope: name }),
		disagreements: items
			.filter((r) => r.first !== r.second)
			.map(({ decision, first, second }) => ({ decision, first, second }))
	};
}

function compare(
	first: string,
	second: string,
	items: readonly Rated[],
	classes: string[],
	options: BootstrapOptions
): RaterComparison {
	const stages = STAGE_GROUPS.flatMap((stage) => {
		const own = items.filter((r) => stageGroup(r.decision.stage) === stage);
		if (own.length === 0) return [];
		const by_class: Record<string, ScopeAgreement> = {};
		for (const cls of classes) {
			const mine = own.filter((r) => r.cls === cls);
			if (mine.length > 0) by_class[cls] = scope(mine, stage, options, `${stage}/${cls}`);
		}
		return [{ stage, overall: scope(own, stage, options, stage), by_class }];
	});
	return { first, second, stages };
}

/** The agreement report of one run: its decisions, its reviews (any reviewers), its class map. */
export function reviewReport(
	decisions: readonly Decision[],
	reviews: readonly ReviewLine[],
	categories: CategoryMap,
	options: BootstrapOptions = {}
): ReviewReport {
	const clsOf = new Map(decisions.map((d) => [d.key, d.cls]));
	const classOfReview = (r: ReviewLine) => clsOf.get(decisionKey(r.decision)) ?? UNCLASSIFIED;
	const reviewers = [...new Set(reviews.map((r) => r.reviewer))].sort();
	const classes = orderClasses(
		decisions.map((d) => d.cls),
		categories
	);
	const mine = (who: string) => reviews.filter((r) => r.reviewer === who);
	const judge = reviewers.map((who) =>
		compare(
			'judge',
			who,
			mine(who).map((r) => ({
				decision: r.decision,
				first: r.judge_label,
				second: r.reviewer_label,
				cls: classOfReview(r)
			})),
			classes,
			options
		)
	);
	const between: RaterComparison[] = [];
	for (let i = 0; i < reviewers.length; i++) {
		const firsts = new Map(mine(reviewers[i]).map((r) => [decisionKey(r.decision), r]));
		for (const second of reviewers.slice(i + 1)) {
			const both = mine(second).flatMap((r) => {
				const f = firsts.get(decisionKey(r.decision));
				return f
					? [
							{
								decision: r.decision,
								first: f.reviewer_label,
								second: r.reviewer_label,
								cls: classOfReview(r)
							}
						]
					: [];
			});
			between.push(compare(reviewers[i], second, both, classes, options));
		}
	}
	const corrected = reviewers.map((who) => {
		const own = mine(who);
		const pairsOf = (keep: (r: ReviewLine) => boolean) => {
			const kept = own.filter(keep);
			const of = (g: StageGroup) =>
				kept
					.filter((r) => stageGroup(r.decision.stage) === g)
					.map((r): LabelPair => [r.judge_label, r.reviewer_label]);
			return { lca: of('lca'), dcg: of('dcg'), ljp: of('ljp') };
		};
		const by_class: Record<string, CorrectedMetrics> = {};
		for (const cls of classes) {
			by_class[cls] = correctedMetrics(
				decisions.filter((d) => d.cls === cls),
				pairsOf((r) => classOfReview(r) === cls),
				{ ...options, scope: `${who}/${cls}` }
			);
		}
		return {
			reviewer: who,
			overall: correctedMetrics(
				decisions,
				pairsOf(() => true),
				{ ...options, scope: who }
			),
			by_class
		};
	});
	return { reviewers, judge, between, corrected };
}

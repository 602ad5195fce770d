/**
 * Agreement of a run's reviews (README.md): the judge against each reviewer, and each pair of
 * reviewers on the decisions both reviewed, per stage group and per cause class, each with its
 * disagreements; and the judged metrics corrected by each reviewer's sample. What the judge said
 * is the run's own record of each decision, never the `judge_label` a review file states: a
 * review whose stated label is not the run's was made of another judging of the decision (a
 * sample copied onto a re-judged run, an edited file) and is left out, counted.
 */
import type { CategoryMap } from '../dataset/types';
import { CheckpointError } from '../errors';
import { orderClasses } from '../metrics/by-class';
import { decisionKey } from '../names';
import { coded } from '../said';
import { judgeErrorRates } from './corrected';
import { correctedMetrics, type CorrectedMetrics } from './corrected-metrics';
import { GROUP_LABELS, STAGE_GROUPS, stageGroup, type StageGroup } from '../protocol';
import type { Decision, DecisionId } from './decisions';
import { agreement, type Agreement, type BootstrapOptions, type LabelPair } from './kappa';
import type { PlacedReview } from './merge';
import type { ReviewLine } from './review-line';

/** A decision two raters labelled differently. */
export interface Disagreement {
	decision: DecisionId;
	first: string;
	second: string;
}

export interface ScopeAgreement extends Agreement {
	disagreements: Disagreement[];
	/**
	 * The judge against a reviewer on a two-label stage (LCA, DCG), the reviewer taken as the
	 * truth: the judge's sensitivity and specificity with Wilson intervals, the rates the
	 * corrected estimates apply. Absent between two reviewers and for LJP (its verdicts' matrix).
	 */
	judge_error?: ReturnType<typeof judgeErrorRates>;
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
	/**
	 * Per reviewer with any, the reviews left out of every figure because the judge label they
	 * state is not the one the run holds for the decision (reviewer order).
	 */
	mismatched: { reviewer: string; reviews: number }[];
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
	name: string,
	ofJudge: boolean
): ScopeAgreement {
	const pairs: LabelPair[] = items.map((r) => [r.first, r.second]);
	const labels = GROUP_LABELS[stage];
	return {
		...agreement(pairs, labels, { ...options, scope: name, ordinal: stage === 'ljp' }),
		disagreements: items
			.filter((r) => r.first !== r.second)
			.map(({ decision, first, second }) => ({ decision, first, second })),
		// The first label of a two-label stage is its positive one (protocol/decisions.ts).
		...(ofJudge && labels.length === 2 ? { judge_error: judgeErrorRates(pairs, labels[0]) } : {})
	};
}

function compare(
	first: string,
	second: string,
	items: readonly Rated[],
	classes: string[],
	options: BootstrapOptions,
	/** The first rater is the run's judge (not a reviewer who happens to be named so). */
	ofJudge = false
): RaterComparison {
	const stages = STAGE_GROUPS.flatMap((stage) => {
		const own = items.filter((r) => stageGroup(r.decision.stage) === stage);
		if (own.length === 0) return [];
		const by_class: Record<string, ScopeAgreement> = {};
		for (const cls of classes) {
			const mine = own.filter((r) => r.cls === cls);
			if (mine.length > 0) by_class[cls] = scope(mine, stage, options, `${stage}/${cls}`, ofJudge);
		}
		return [{ stage, overall: scope(own, stage, options, stage, ofJudge), by_class }];
	});
	return { first, second, stages };
}

/** A decision as a review line names it, in the file's own field names: `stage dcg, round 2`. */
export function decisionPlace(d: DecisionId): string {
	const [field, value] =
		d.history_type !== null
			? ['history_type', d.history_type]
			: d.round !== null
				? ['round', d.round]
				: ['claim', d.claim];
	return `stage ${d.stage}, ${field} ${value}`;
}

/**
 * Refuses the reviews of `placed` whose decision the run's `decisions` do not hold (a review of
 * another run's records, or of records since replaced), naming the first one's file, line and
 * case: a review can only be compared with a decision the run made.
 */
export function refuseUnheld(
	decisions: readonly Decision[],
	placed: readonly PlacedReview[]
): void {
	const held = new Set(decisions.map((d) => d.key));
	const stray = placed.find((p) => !held.has(decisionKey(p.review.decision)));
	if (stray === undefined) return;
	const { decision, reviewer } = stray.review;
	throw new CheckpointError([
		coded('review_unknown_decision', {
			file: stray.file,
			line: stray.line,
			reviewer,
			caseNumber: String(decision.case_number),
			decision: decisionPlace(decision)
		})
	]);
}

/**
 * The agreement report of one run: its decisions, its reviews (any reviewers, each of a decision
 * the run holds: see {@link refuseUnheld}), its class map.
 */
export function reviewReport(
	decisions: readonly Decision[],
	allReviews: readonly ReviewLine[],
	categories: CategoryMap,
	options: BootstrapOptions = {}
): ReviewReport {
	const byKey = new Map(decisions.map((d) => [d.key, d]));
	const held = (r: ReviewLine) => {
		const d = byKey.get(decisionKey(r.decision));
		if (d === undefined) throw new RangeError(`a review of a decision the run does not hold`);
		return d;
	};
	const reviewers = [...new Set(allReviews.map((r) => r.reviewer))].sort();
	const reviews = allReviews.filter((r) => held(r).label === r.judge_label);
	const mismatched = reviewers.flatMap((reviewer) => {
		const count = allReviews.filter(
			(r) => r.reviewer === reviewer && held(r).label !== r.judge_label
		).length;
		return count ? [{ reviewer, reviews: count }] : [];
	});
	const classOfReview = (r: ReviewLine) => held(r).cls;
	const judgeLabel = (r: ReviewLine) => held(r).label;
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
				first: judgeLabel(r),
				second: r.reviewer_label,
				cls: classOfReview(r)
			})),
			classes,
			options,
			true
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
					.map((r): LabelPair => [judgeLabel(r), r.reviewer_label]);
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
	return { reviewers, judge, between, mismatched, corrected };
}

/**
 * The judge decisions of PROTOCOL.md §4 declared once, one row per kind: an LCA label per
 * response, a DCG 是/否 per forced question (round), an LJP verdict per claim in each setup.
 * Agreement (human review), judge-vs-judge pairs, the metrics' case table and the figures take
 * their stages, files and labels from here. No zod: `records.ts` builds its label enums on these.
 */
import { VERDICTS } from '../dataset/names';
import { stageRow, STAGES, type LjpSetup } from './stages';

/** LCA: the response asks for the missing facts, or answers (the first is "positive"). */
export const LCA_LABELS = ['clarification', 'judgment'] as const;
/** DCG: the forced question aims at a focal point or key detail, or does not. */
export const DCG_LABELS = ['是', '否'] as const;

/** Where a decision sits in its record. */
export type DecisionPlace = 'history' | 'round' | 'claim';

/** The record fields a decision is read from, any file (a judge file as saved or as loaded). */
export interface JudgedRecord {
	case_number: string | number;
	cause_of_action: string;
	history_type?: 'complete' | 'underspecified';
	label?: string;
	round_labels?: readonly string[];
	predicted?: readonly string[];
	gold?: readonly string[];
}

/**
 * One decision of a record: its place there (the history judged, the question's 1-based round or
 * the claim's 0-based index, as a review line names it) and its label.
 */
export interface RecordDecision {
	place: { history_type: 'complete' | 'underspecified' } | { round: number } | { claim: number };
	label: string;
	/** LJP: the claim's gold verdict (never shown to the judge). */
	gold?: string;
}

/** Pooled for agreement: one judge prompt each (the three LJP setups share theirs). */
export type StageGroup = 'lca' | 'dcg' | 'ljp';

const KINDS = [
	{ stage: 'lca', group: 'lca', labels: LCA_LABELS, place: 'history', score: 'lca' },
	{ stage: 'dcg', group: 'dcg', labels: DCG_LABELS, place: 'round', score: 'dcg' },
	...STAGES.flatMap((s) =>
		s.ljpSetup === null
			? []
			: [
					{
						stage: s.name,
						group: 'ljp',
						labels: VERDICTS,
						place: 'claim',
						score: s.ljpSetup
					} as const
				]
	)
] as const;

export type DecisionStage = (typeof KINDS)[number]['stage'];
/** Where a judged file's metrics sit in a metrics tree: `lca`, `dcg` or an LJP setup. */
export type ScoreKey = 'lca' | 'dcg' | LjpSetup;

export interface DecisionKind {
	/** The stage whose judge makes it, as the call log and review lines name it. */
	stage: DecisionStage;
	group: StageGroup;
	/** The eval_results file that holds it (the stage's `evalFile`). */
	file: EvalFile;
	/** The labels a judge (and a reviewer) may give, in matrix order; the first is "positive". */
	labels: readonly string[];
	place: DecisionPlace;
	score: ScoreKey;
}

/** The eval_results files: the judge files of the stages, which the metrics are computed from. */
export type EvalFile = (typeof STAGES)[number]['evalFile'];

/** Every decision kind, in report order. */
export const DECISION_KINDS: readonly DecisionKind[] = KINDS.map((k) => ({
	...k,
	file: stageRow(k.stage).evalFile as EvalFile
}));

/** The files the metrics are computed from, one per decision kind, in report order. */
export const EVAL_FILES: readonly EvalFile[] = DECISION_KINDS.map((k) => k.file);

/** The judged stages, in report order. */
export const DECISION_STAGES = KINDS.map((k) => k.stage) as readonly DecisionStage[] as readonly [
	DecisionStage,
	...DecisionStage[]
];

export const STAGE_GROUPS: readonly StageGroup[] = [...new Set(DECISION_KINDS.map((k) => k.group))];

const KIND_OF = new Map(DECISION_KINDS.map((k) => [k.stage, k]));

/** The row of a judged stage. */
export function decisionKind(stage: DecisionStage): DecisionKind {
	return KIND_OF.get(stage)!;
}

/** The labels of each group, in matrix order. */
export const GROUP_LABELS: Record<StageGroup, readonly string[]> = Object.fromEntries(
	DECISION_KINDS.map((k) => [k.group, k.labels])
) as Record<StageGroup, readonly string[]>;

/** The eval file of each metrics-tree key (`lca`, `dcg`, `direct`, `gold`, `interaction`). */
export const SCORED_FILE: Record<ScoreKey, EvalFile> = Object.fromEntries(
	DECISION_KINDS.map((k) => [k.score, k.file])
) as Record<ScoreKey, EvalFile>;

/** The decisions one record of `kind`'s file holds, in record order. */
export function recordDecisions(kind: DecisionKind, r: JudgedRecord): RecordDecision[] {
	switch (kind.place) {
		case 'history':
			return [{ place: { history_type: r.history_type! }, label: r.label! }];
		case 'round':
			return r.round_labels!.map((label, i) => ({ place: { round: i + 1 }, label }));
		case 'claim':
			return r.predicted!.map((label, j) => ({ place: { claim: j }, label, gold: r.gold![j] }));
	}
}

/** The group a judged stage is pooled in for agreement. */
export function stageGroup(stage: DecisionStage): StageGroup {
	return decisionKind(stage).group;
}

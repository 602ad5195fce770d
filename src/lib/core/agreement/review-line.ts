/**
 * A review line (PROTOCOL.md §5, "Review files"): one person's label for one judge decision.
 * Declared once here; the browser store, bundles and the CLI read and write through it.
 */
import { z } from 'zod';
import { CaseNumber } from '../records';
import { DECISION_STAGES, GROUP_LABELS, stageGroup } from '../protocol';

/** The identity of a decision (`DecisionId` of decisions.ts, checked). */
export const DecisionIdSchema = z
	.object({
		run_id: z.string().min(1).max(64),
		model_dir: z.string().min(1).max(80),
		stage: z.enum(DECISION_STAGES),
		case_number: CaseNumber,
		history_type: z.enum(['complete', 'underspecified']).nullable(),
		round: z.number().int().min(1).max(2).nullable(),
		claim: z.number().int().nonnegative().max(10_000).nullable()
	})
	.strict()
	.refine(
		(d) =>
			(d.stage === 'lca') === (d.history_type !== null) &&
			(d.stage === 'dcg') === (d.round !== null) &&
			d.stage.startsWith('ljp') === (d.claim !== null),
		{ message: 'history_type (LCA), round (DCG) or claim (LJP) must be set for its stage only' }
	);

/** Longest reviewer name and note kept. */
export const MAX_REVIEWER = 100;
export const MAX_NOTE = 4000;

export const ReviewLine = z
	.object({
		decision: DecisionIdSchema,
		/** The judge's parsed label when the sample was drawn. */
		judge_label: z.string().max(20),
		/** The label the reviewer believes right. */
		reviewer_label: z.string().max(20),
		note: z.string().max(MAX_NOTE).optional(),
		/** As typed; never a path (the file name is `reviewerFileName` of it). */
		reviewer: z.string().min(1).max(MAX_REVIEWER),
		/** ISO time of the review. */
		at: z.string().min(1).max(40)
	})
	.loose()
	.refine(
		(r) => {
			const labels = GROUP_LABELS[stageGroup(r.decision.stage)];
			return labels.includes(r.judge_label) && labels.includes(r.reviewer_label);
		},
		{
			message:
				'labels must be of the decision stage (ask: clarification/judgment, 是/否, 支持/部分支持/驳回)'
		}
	);
export type ReviewLine = z.infer<typeof ReviewLine>;

/**
 * Which waiting call of `runAll` goes first: the one with the longest chain of dependent calls
 * still ahead of it, so a case whose interaction will run long starts early and the run does not
 * end with one case's chain running alone. Ties go to the earlier case. A chain's length is not
 * known in advance (an interaction ends at the first judgment), so each call counts the longest
 * chain it can head: gen's first answer heads a1 → label → three rounds of reply, answer and
 * label → the forced answer → the LJP of the interaction (11 calls); dcg's first question 4;
 * Direct's and Gold's answer 2; every judge that ends a chain 1.
 */
import type { Case } from '../dataset/types';
import type { TemplateName } from '../prompts/slots';
import type { CallMeta } from './context';
import { QUESTION_BUDGET } from '../protocol';
import type { StageName } from './types';

/** The calls of the longest chain `task` of `stage` heads, itself included. */
export function chainAhead(stage: StageName | null, task: TemplateName, meta?: CallMeta): number {
	const round = meta?.round;
	// An interaction's forced answer, then the LJP of the interaction.
	const forced = 2;
	// From the reply to round r: the reply, then per later round an answer, its label and a reply.
	const fromReply = (r: number) => 3 * (QUESTION_BUDGET - r) + 1 + forced;
	switch (stage) {
		case 'gen':
			if (task === 'user_standard') return fromReply(round ?? 1);
			if (task === 'force_judge') return forced;
			if (round === undefined) return (task === 'lexawn' ? 2 : 1) + fromReply(1);
			return (task === 'lexawn' ? 2 : 1) + fromReply(round);
		case 'dcg':
			if (task === 'force_ask') return round === 2 ? 2 : 4;
			return task === 'user_standard' ? 3 : 1;
		case 'ljp-direct':
		case 'ljp-gold':
			return task === 'force_judge' ? 2 : 1;
		default:
			return 1;
	}
}

/**
 * The longest chain a case of `stage` can make, its first call's {@link chainAhead}: gen 11 (its
 * interaction and the interaction's LJP), dcg 4, Direct and Gold 2, a judge alone 1. Batch mode
 * takes that many rounds at most when no request fails.
 */
export function stageChain(stage: StageName): number {
	switch (stage) {
		case 'gen':
			return chainAhead(stage, 'lexawn');
		case 'dcg':
			return chainAhead(stage, 'force_ask');
		default:
			return chainAhead(stage, 'force_judge');
	}
}

/** The {@link chainAhead} a {@link callPriority} was made of (0 for any other priority). */
export function chainOfPriority(priority: number): number {
	return Math.max(0, Math.ceil(-priority / 2 ** 32));
}

/** Longest chain ahead first, then the earlier case (lower is served first). */
export function callPriority(
	stage: StageName | null,
	task: TemplateName,
	kase: Case,
	meta?: CallMeta
): number {
	return -chainAhead(stage, task, meta) * 2 ** 32 + kase.index;
}

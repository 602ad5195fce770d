/**
 * Tokens per call before any call is made, from the dataset itself: each role's prompts filled
 * through the prompt pack with each case's own values (its histories, key details, focal
 * points, claims), counted in tokens with a stated factor per character, and its answers from
 * none to `max_tokens`. A model that earlier runs measured uses its measured tokens instead
 * (`measured` in the plan's estimate); the calls of a run replace this guess as they come.
 */
import type { Case } from '../dataset/types';
import { focalPointsText, keyDetailsText, renderHistory } from '../dataset/render';
import { claimsText, fillTemplate, type SlotValues } from '../prompts/fill';
import type { PromptPack } from '../prompts/pack';
import type { TemplateName } from '../prompts/slots';
import type { Role } from '../record-names';
import type { TokenCount } from './cost';

/**
 * Tokens per character, by script. Estimates, not a tokenizer's count: tokenizers differ by
 * model (a Chinese character is about 0.6 token for DeepSeek's and Qwen's, up to one or more for
 * older GPT ones; English text is about four characters a token for all of them). The plan's
 * estimate is a range for this reason; docs/BROWSER.md (the plan's estimate) states the same.
 */
export const TOKENS_PER_CHAR = {
	/** A Chinese, Japanese or Korean character, or full-width punctuation. */
	cjk: 0.7,
	/** Any other character: Latin letters, digits, spaces, ASCII punctuation, markup. */
	other: 0.25
} as const;

const CJK = /[\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]/gu;

/** The estimated tokens of `text` ({@link TOKENS_PER_CHAR}), rounded up. */
export function textTokens(text: string): number {
	const cjk = text.match(CJK)?.length ?? 0;
	const other = [...text].length - cjk;
	return Math.ceil(cjk * TOKENS_PER_CHAR.cjk + other * TOKENS_PER_CHAR.other);
}

/** Cases read at most, spread over the selection, so a large dataset does not hold up a page. */
export const MAX_CASES_READ = 500;

/** Tokens of one call: the least a call can take and the most. */
export interface TokenRange {
	min: TokenCount;
	max: TokenCount;
}

/**
 * The prompts of a role for one case, as the stages fill them, with the slots that hold a model's
 * answer (a question, a response) counted as empty: each such slot can add up to `max_tokens`.
 */
function rolePrompts(kase: Case): Record<Role, [TemplateName, SlotValues, answerSlots: number][]> {
	const complete = renderHistory(kase.complete);
	const under = renderHistory(kase.underspecified);
	const keyDetails = keyDetailsText(kase.key_details);
	return {
		evaluated: [
			['lexawn', { history: complete }, 0],
			['lexawn', { history: under }, 0],
			['force_ask', { history: under }, 0],
			['force_judge', { history: complete }, 0],
			['force_judge', { history: under }, 0]
		],
		user: [['user_standard', { key_details: keyDetails, history: under, question: '' }, 1]],
		judge: [
			['judge_lca', { response: '' }, 1],
			[
				'judge_dcg',
				{
					focal_points: focalPointsText(kase.focal_points),
					key_details: keyDetails,
					question: ''
				},
				1
			],
			['judge_extract', { claims: claimsText(kase.claims.map((c) => c.claim)), response: '' }, 1]
		]
	};
}

/**
 * Mean tokens of one call of each role over `cases` (at most {@link MAX_CASES_READ} of them, evenly
 * spaced), through `pack`: prompts as filled, with an answer slot from empty to `maxTokens`;
 * completions from none to `maxTokens`. Null without cases.
 */
export function datasetTokensPerCall(
	cases: readonly Case[],
	pack: PromptPack,
	maxTokens: number
): Record<Role, TokenRange> | null {
	if (cases.length === 0) return null;
	const sums: Record<Role, { calls: number; prompt: number; answers: number }> = {
		evaluated: { calls: 0, prompt: 0, answers: 0 },
		user: { calls: 0, prompt: 0, answers: 0 },
		judge: { calls: 0, prompt: 0, answers: 0 }
	};
	const step = Math.max(1, cases.length / MAX_CASES_READ);
	for (let i = 0; i < cases.length; i += step) {
		const kase = cases[Math.floor(i)];
		const prompts = rolePrompts(kase);
		for (const role of Object.keys(sums) as Role[]) {
			for (const [name, values, answers] of prompts[role]) {
				sums[role].calls++;
				sums[role].prompt += textTokens(fillTemplate(pack, name, values));
				sums[role].answers += answers;
			}
		}
	}
	const range = (s: { calls: number; prompt: number; answers: number }): TokenRange => {
		const prompt = s.prompt / s.calls;
		return {
			min: { prompt, completion: 0 },
			max: { prompt: prompt + (s.answers / s.calls) * maxTokens, completion: maxTokens }
		};
	};
	return { evaluated: range(sums.evaluated), user: range(sums.user), judge: range(sums.judge) };
}

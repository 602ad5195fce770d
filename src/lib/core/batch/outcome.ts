/**
 * What a round's answers say, for a person (issue 32, "say why"): how many are answers, and the
 * failed requests by kind — an HTTP status (`HTTP 500`), a batch error code (`batch_expired`,
 * `not_text`, `no_answer`) or a body that is not a chat completion — each with its count and the
 * provider's first message of that kind, clipped. Kept with the round (`BatchRound.outcome`),
 * printed by the CLI as a round comes back and by `batch import`.
 */
import { z } from 'zod';
import { clipText, QUOTED_CHARS } from '../text/clip';
import type { BatchAnswer } from './output';

/** Kinds kept apart; further kinds are counted together as `other`. */
const MAX_KINDS = 12;

export const RoundOutcome = z.object({
	/** Requests answered with a chat completion (still checked as any answer is when used). */
	answers: z.number().int().nonnegative(),
	/** The failed requests by kind, in the order first met. */
	failed: z
		.array(
			z.object({
				what: z.string().max(80),
				count: z.number().int().positive(),
				first: z.string().max(QUOTED_CHARS + 40)
			})
		)
		.max(MAX_KINDS + 1)
});
export type RoundOutcome = z.infer<typeof RoundOutcome>;

const NOT_COMPLETION = 'not a chat completion';

/** The provider's words in a body: `error.message`, a string body, else the body as JSON. */
function bodyWords(body: unknown): string {
	if (typeof body === 'string') return body;
	const message = (body as { error?: { message?: unknown } } | null)?.error?.message;
	if (typeof message === 'string') return message;
	return JSON.stringify(body ?? null) ?? '';
}

/** What kind of answer it is (null: an answer) and its first words. */
function kindOf(answer: BatchAnswer): { what: string; words: string } | null {
	if ('error' in answer) {
		return { what: answer.error.code ?? 'error', words: answer.error.message ?? '' };
	}
	if (answer.status < 200 || answer.status >= 300) {
		return { what: `HTTP ${answer.status}`, words: bodyWords(answer.body) };
	}
	const choices = (answer.body as { choices?: unknown } | null)?.choices;
	const message = Array.isArray(choices) ? (choices[0] as { message?: unknown })?.message : null;
	if (message === null || typeof message !== 'object') {
		return { what: NOT_COMPLETION, words: JSON.stringify(answer.body ?? null) ?? '' };
	}
	return null;
}

/** The outcome of a round's answers (one per request, unanswered ones as `no_answer`). */
export function roundOutcome(answers: Iterable<BatchAnswer>): RoundOutcome {
	let count = 0;
	const failed = new Map<string, { what: string; count: number; first: string }>();
	for (const answer of answers) {
		const kind = kindOf(answer);
		if (!kind) {
			count++;
			continue;
		}
		const what = failed.size >= MAX_KINDS && !failed.has(kind.what) ? 'other' : kind.what;
		const seen = failed.get(what);
		if (seen) seen.count++;
		else {
			failed.set(what, {
				what: clipText(what, 40),
				count: 1,
				first: clipText(kind.words.trim(), QUOTED_CHARS)
			});
		}
	}
	return { answers: count, failed: [...failed.values()] };
}

/** Failed requests in all. */
export function failedCount(outcome: RoundOutcome): number {
	return outcome.failed.reduce((n, f) => n + f.count, 0);
}

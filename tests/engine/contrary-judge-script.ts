/**
 * A judge that disagrees with the simulated one, for re-judging tests: it labels a response that
 * asks (a question mark) as an answer and the others as asking, says 否 to every DCG question and
 * 驳回 to every claim; every other task is refused (a re-judged run makes no generation call).
 *
 *   npx tsx tests/fake-openai/cli.ts --script tests/engine/contrary-judge-script.ts
 */
import { DEFAULT_PROMPT_PACK } from '../../src/lib/core/prompts/default-pack';
import { parseFilledPrompt, taskOfPrompt } from '../../src/lib/core/prompts/fill';
import type { TaskScript } from '../fake-openai/by-task';

/** The contrary judge's answer to a filled judge prompt of the default pack; null for any other. */
export function contraryJudgment(prompt: string): string | null {
	const parsed = parseFilledPrompt(prompt, DEFAULT_PROMPT_PACK);
	switch (parsed?.task) {
		case 'judge_lca':
			return JSON.stringify({
				label: /[？?]/.test(parsed.values.response ?? '') ? '直接判断' : '澄清'
			});
		case 'judge_dcg':
			return JSON.stringify({ label: '否' });
		case 'judge_extract': {
			const count = (parsed.values.claims ?? '').match(/^\d+\.\s/gm)?.length ?? 1;
			return JSON.stringify({ verdicts: Array.from({ length: count }, () => '驳回') });
		}
		default:
			return null;
	}
}

export const contraryJudgeScript: TaskScript = {
	detect: ({ prompt }) => taskOfPrompt(prompt, DEFAULT_PROMPT_PACK),
	responders: Object.fromEntries(
		(['judge_lca', 'judge_dcg', 'judge_extract'] as const).map((task) => [
			task,
			({ prompt }: { prompt: string }) => ({ content: contraryJudgment(prompt) ?? '' })
		])
	)
};

export default contraryJudgeScript;

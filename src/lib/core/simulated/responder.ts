/**
 * Deterministic, offline answers for every task, so the whole protocol can be demonstrated
 * and tested without a provider. Same prompt → same answer. The answers are plausible
 * Chinese, not legal advice: they exist to exercise the pipeline, never to be scored as a model.
 */
import type { Task } from '../model/types';
import { parseFilledPrompt, type SlotValues } from '../prompts/fill';
import type { PromptPack } from '../prompts/pack';
import { DEFAULT_PROMPT_PACK } from '../prompts/default-pack';
import { dcgChance, POINTED_QUESTIONS, VAGUE_QUESTIONS, type SimulatedProfile } from './profiles';

/** Who answers as an evaluated model with a profile (`profiles.ts`): it and the run's seed. */
export interface SimulatedVariant {
	profile: SimulatedProfile;
	/** Mixed into the seed of the evaluated model's answers: the model and the run id. */
	salt: string;
}

/** 32-bit FNV-1a: a fast synchronous hash; it only seeds choices, nothing security-related. */
export function fnv1a(text: string): number {
	let h = 0x811c9dc5;
	for (let i = 0; i < text.length; i++) {
		h ^= text.charCodeAt(i);
		h = Math.imul(h, 0x01000193);
	}
	return h >>> 0;
}

const QUESTIONS = [
	'双方是否签订了书面合同、借条或其他书面约定？能否提供原件或照片？',
	'事情发生的具体时间是什么时候？之后您有没有向对方主张过权利？',
	'涉及的金额具体是多少？对方是否已经部分支付或归还？',
	'对方是否承认这些事实？有没有聊天记录、转账记录或证人可以证明？',
	'您是否已经与对方协商或书面催告？对方是怎么答复的？',
	'目前的损害后果如何？是否有医院诊断证明、鉴定意见或费用票据？',
	'对方是个人还是公司？如果是公司，具体是哪一家？',
	'当时有没有约定违约责任、利息或履行期限？'
];

const ANALYSES = [
	'双方之间成立合法有效的民事法律关系，应当按照约定和法律规定全面履行各自义务',
	'对方的行为已经构成违约（或侵权），应当承担相应的民事责任',
	'您主张的主要事实如能以书面证据或转账记录证明，法院通常会予以认定',
	'对于超出实际损失或缺乏依据的部分，法院可能不予支持或予以调减'
];

const PREDICTIONS = [
	'您的主要请求获得法院支持的可能性较大',
	'您的请求很可能得到部分支持，具体金额法院可能会根据证据予以调整',
	'如果缺少关键证据，部分请求存在被驳回的风险'
];

function pick<T>(list: readonly T[], seed: number): T {
	return list[seed % list.length];
}

/** Counts of the rendered history (`User: …` / `Assistant: …` lines, PROTOCOL.md §2). */
function historyShape(history: string): { assistantTurns: number; userChars: number } {
	let assistantTurns = 0;
	let userChars = 0;
	let speaker: 'user' | 'assistant' | null = null;
	for (const line of history.split('\n')) {
		if (line.startsWith('User: ')) speaker = 'user';
		else if (line.startsWith('Assistant: ')) {
			speaker = 'assistant';
			assistantTurns++;
		}
		if (speaker === 'user') userChars += line.length;
	}
	return { assistantTurns, userChars };
}

const QUESTION_SETS = { plain: QUESTIONS, pointed: POINTED_QUESTIONS, vague: VAGUE_QUESTIONS };

function askMessage(seed: number, set: keyof typeof QUESTION_SETS = 'plain'): string {
	const questions = QUESTION_SETS[set];
	const first = seed % questions.length;
	const second = (first + 1 + ((seed >>> 8) % (questions.length - 1))) % questions.length;
	return [
		'感谢您的说明。为了准确判断您的情况，我还需要了解以下几点：',
		`1. ${questions[first]}`,
		`2. ${questions[second]}`,
		'请您补充这些信息后，我再给出具体的分析和判断。'
	].join('\n');
}

function answerMessage(seed: number, assumptions: boolean): string {
	const lines = ['根据您目前提供的情况，初步分析如下：'];
	const first = seed % ANALYSES.length;
	const second = (first + 1 + ((seed >>> 4) % (ANALYSES.length - 1))) % ANALYSES.length;
	lines.push(`一、${ANALYSES[first]}。`);
	lines.push(`二、${ANALYSES[second]}。`);
	if (assumptions)
		lines.push(
			'三、对于对话中没有说明的事实，我假定双方对基本事实没有争议；如实际情况不同，结论可能随之变化。'
		);
	lines.push(`${assumptions ? '四' : '三'}、结果预测：${pick(PREDICTIONS, seed >>> 8)}。`);
	lines.push('以上意见基于您目前陈述的事实，建议您整理好相关证据材料。');
	return lines.join('\n');
}

/** Fact lines of a rendered `key_details` slot, with list numbering removed. */
function facts(keyDetails: string): string[] {
	return keyDetails
		.split(/\n|；|;/)
		.map((f) => f.replace(/^\s*(\d+[.、)]|[-•])\s*/, '').trim())
		.filter((f) => f.length > 0);
}

function userReply(values: SlotValues, seed: number): string {
	const known = facts(values.key_details ?? '');
	if (known.length === 0 || seed % 7 === 0) return '这个我不太清楚，我这边没有更多的信息了。';
	const first = pick(known, seed);
	const second = known.length > 1 ? pick(known, seed >>> 5) : first;
	const told = first === second ? [first] : [first, second];
	return `是这样的，${told.map((f) => f.replace(/[。.]$/, '')).join('；')}。其他的我就不太清楚了。`;
}

function json(value: unknown, seed: number): string {
	const text = JSON.stringify(value);
	// Some real judges wrap JSON in a fence; doing so now and then keeps the parser honest.
	return seed % 4 === 0 ? `判断如下：\n\`\`\`json\n${text}\n\`\`\`` : text;
}

/** Tasks the evaluated model answers: a profile changes only these. */
const EVALUATED_TASKS: readonly Task[] = ['lexawn', 'force_ask', 'force_judge'];

/**
 * The simulated content for a filled prompt of `task`; with a `variant`, the evaluated model's
 * answers are those of its profile, seeded by the variant's salt and the prompt.
 */
export function simulateResponse(
	task: Task,
	prompt: string,
	pack: PromptPack = DEFAULT_PROMPT_PACK,
	variant?: SimulatedVariant
): string {
	const profile = variant && EVALUATED_TASKS.includes(task) ? variant.profile : null;
	const seed = profile ? fnv1a(`${variant!.salt}\u0000${prompt}`) : fnv1a(prompt);
	const parsed = parseFilledPrompt(prompt, pack);
	// With a pack we cannot read, the whole prompt stands in for every slot.
	const values: SlotValues =
		parsed?.task === task
			? parsed.values
			: {
					history: prompt,
					key_details: prompt,
					question: prompt,
					response: prompt,
					claims: prompt
				};
	switch (task) {
		case 'lexawn': {
			const { assistantTurns, userChars } = historyShape(values.history ?? '');
			if (profile) {
				const asks = profile.asks({ assistantTurns, userChars }, seed);
				return asks ? askMessage(seed, profile.questions) : answerMessage(seed, false);
			}
			const askChance = Math.max(10, 55 - 20 * assistantTurns);
			const asks = userChars < 40 || seed % 100 < askChance;
			return asks ? askMessage(seed) : answerMessage(seed, false);
		}
		case 'force_ask':
			return askMessage(seed, profile?.questions);
		case 'force_judge':
			return answerMessage(seed, true);
		case 'user_standard':
			return userReply(values, seed);
		case 'judge_lca':
			return json({ label: /[？?]/.test(values.response ?? '') ? '澄清' : '直接判断' }, seed);
		case 'judge_dcg':
			return json(
				{ label: (seed >>> 3) % 100 < dcgChance(values.question ?? '') ? '是' : '否' },
				seed
			);
		case 'judge_extract': {
			const count = (values.claims ?? '').match(/^\d+\.\s/gm)?.length ?? 1;
			const verdicts = Array.from({ length: count }, (_, i) => {
				const roll = fnv1a(`${values.response ?? ''}#${i}`) % 10;
				return roll < 5 ? '支持' : roll < 8 ? '部分支持' : '驳回';
			});
			return json({ verdicts }, seed);
		}
	}
}

/** For servers that see only the prompt: the simulated content, or null for a foreign prompt. */
export function simulateFromPrompt(
	prompt: string,
	pack: PromptPack = DEFAULT_PROMPT_PACK
): string | null {
	const parsed = parseFilledPrompt(prompt, pack);
	return parsed ? simulateResponse(parsed.task, prompt, pack) : null;
}

/**
 * Named evaluated models of the simulated provider that really differ, so a plan of several
 * models × repetitions shows what a real one shows: models apart, repetitions a little apart.
 * A profile's answers are seeded by the model, the run id and the prompt (which holds the case),
 * so they are deterministic per model, run and case. Every other model id (the plain
 * `simulated`) answers exactly as before: seeded by the prompt alone, the same in every run.
 *
 * - `simulated-strong` asks when the consultation is short (as an underspecified one is) and
 *   answers when it is long, with a little noise; its clarification questions are pointed.
 * - `simulated-weak` asks or answers by a coin weighted to answering, whatever the history; its
 *   questions are vague.
 * - `simulated-asks-always` asks every time it may (a forced answer still answers).
 *
 * The simulated DCG judge rates a pointed question more often as useful than a plain one, and a
 * vague one less often (`dcgChance`); plain questions keep their old rate.
 */

/** The ids of the profiles, for forms and help texts. */
export const SIMULATED_PROFILES = [
	'simulated-strong',
	'simulated-weak',
	'simulated-asks-always'
] as const;
export type SimulatedProfileName = (typeof SIMULATED_PROFILES)[number];

/** How a profile decides and asks. */
export interface SimulatedProfile {
	name: SimulatedProfileName;
	/** Whether a `lexawn` answer asks, from the history's shape and a seed. */
	asks(shape: { assistantTurns: number; userChars: number }, seed: number): boolean;
	/** The questions it asks from. */
	questions: 'pointed' | 'vague' | 'plain';
}

const PROFILES: Record<SimulatedProfileName, SimulatedProfile> = {
	'simulated-strong': {
		name: 'simulated-strong',
		// An underspecified consultation says far less than a complete one (tens of characters of
		// the user's against hundreds); a reply adds what was missing. One call in ten goes wrong.
		asks: ({ userChars }, seed) => (seed % 10 === 0) !== userChars < 150,
		questions: 'pointed'
	},
	'simulated-weak': {
		name: 'simulated-weak',
		asks: (_shape, seed) => seed % 100 < 30,
		questions: 'vague'
	},
	'simulated-asks-always': {
		name: 'simulated-asks-always',
		asks: () => true,
		questions: 'plain'
	}
};

/** The profile of an evaluated model id, or null for the plain simulated answers. */
export function simulatedProfile(model: string | undefined): SimulatedProfile | null {
	return model !== undefined && Object.hasOwn(PROFILES, model)
		? PROFILES[model as SimulatedProfileName]
		: null;
}

/** Questions a careful lawyer asks: the facts that decide the case. */
export const POINTED_QUESTIONS = [
	'请问借款（或合同）的具体金额、签订日期和约定的履行期限分别是什么？',
	'对方是否以书面形式承认过欠款或违约？有无签字的确认文件？',
	'您手上有哪些能直接证明关键事实的证据，例如转账凭证、合同原件或鉴定意见？',
	'纠纷发生后您最后一次向对方主张权利是在什么时候，以什么方式？'
];

/** Questions that ask little. */
export const VAGUE_QUESTIONS = [
	'能再多说说具体情况吗？',
	'还有什么其他信息想补充的吗？',
	'您对这件事有什么想法？'
];

/** The percentage of `judge_dcg` calls that rate `question` useful. */
export function dcgChance(question: string): number {
	if (POINTED_QUESTIONS.some((q) => question.includes(q))) return 80;
	if (VAGUE_QUESTIONS.some((q) => question.includes(q))) return 25;
	return 55;
}

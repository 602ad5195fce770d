/**
 * Stage `gen` (PROTOCOL.md §4.1): a1 → LCA → interaction, per case. Also the `lca` re-judge stage,
 * which completes missing LCA results from saved a1 responses without generating anything new.
 */
import { keyDetailsText, renderHistory } from '../../dataset/render';
import type { Case, History } from '../../dataset/types';
import { JudgeLcaOutput } from '../../model/output';
import type {
	A1Record,
	AnyRecord,
	HistoryType,
	InteractionRecord,
	InteractionRound,
	LcaLabel,
	LcaResultRecord
} from '../../records';
import { QUESTION_BUDGET, STAGE_OUTPUTS } from '../../protocol';
import type { StageFile } from '../../record-names';
import { recordHead, type RecordHead } from '../../store/heads';
import type { Checkpoint } from '../../store/resume';
import type { StageContext } from '../context';
import {
	askUser,
	HISTORY_TYPES,
	historyOf,
	idOf,
	loadFile,
	requireComplete,
	settleAll,
	type PreparedStage
} from './shared';

/** The saved state of a run's gen files, each checked against this run's inputs. */
export interface GenChain {
	a1: Checkpoint<'a1'>;
	lca: Checkpoint<'LCA_results'>;
	interaction: Checkpoint<'interaction'>;
}

type A1Head = RecordHead<'a1'>;
type LcaHead = RecordHead<'LCA_results'>;

/** One history of one case: what an a1 or LCA record stands for. */
interface Side {
	kase: Case;
	type: HistoryType;
}

function sides(cases: readonly Case[]): Side[] {
	return cases.flatMap((kase) => HISTORY_TYPES.map((type) => ({ kase, type })));
}

function a1Prompt(ctx: StageContext, kase: Case, type: HistoryType): string {
	return ctx.fill('lexawn', { history: renderHistory(historyOf(kase, type)) });
}

/** `filled`: the prompt when the caller has it already (the same fill, not made twice). */
function a1Hash(
	ctx: StageContext,
	kase: Case,
	type: HistoryType,
	filled?: string
): Promise<string> {
	return ctx.inputSha256('a1', idOf('a1', kase, type), [], () => ({
		case_number: kase.case_number,
		history_type: type,
		prompt: filled ?? a1Prompt(ctx, kase, type),
		models: { evaluated: ctx.models.evaluated }
	}));
}

function lcaPrompt(ctx: StageContext, response: string): string {
	return ctx.fill('judge_lca', { response });
}

/** Without a saved a1 the hash cannot match any saved LCA record: that record is then stale. */
/** `filled`: the prompt of `a1` when the caller has it already (the same fill, not made twice). */
export function lcaHash(
	ctx: StageContext,
	kase: Case,
	type: HistoryType,
	a1: A1Head | undefined,
	filled?: string
) {
	const upstream = a1?.record_sha256 ?? null;
	return ctx.inputSha256('LCA_results', idOf('LCA_results', kase, type), [upstream], () => ({
		case_number: kase.case_number,
		cause_of_action: kase.cause_of_action,
		history_type: type,
		prompt: a1 ? (filled ?? lcaPrompt(ctx, a1.record.response)) : null,
		models: { judge: ctx.models.judge },
		upstream
	}));
}

/**
 * The interaction's later prompts depend on generated text, so its hash holds what determines
 * them: the history, the hidden facts the user model reads, the templates, the models and the
 * round-1 records it continues from.
 */
function interactionHash(
	ctx: StageContext,
	kase: Case,
	a1: A1Head | undefined,
	lca: LcaHead | undefined
) {
	const { lexawn, user_standard, judge_lca, force_judge } = ctx.pack.templates;
	const upstream = [a1?.record_sha256 ?? null, lca?.record_sha256 ?? null];
	return ctx.inputSha256('interaction', idOf('interaction', kase), upstream, () => ({
		case_number: kase.case_number,
		initial_history: kase.underspecified,
		key_details: keyDetailsText(kase.key_details),
		templates: { lexawn, user_standard, judge_lca, force_judge },
		models: ctx.models,
		upstream
	}));
}

/** Loads a1 and LCA, each checked against the records it builds on. */
async function loadJudgedA1(
	ctx: StageContext,
	cases: readonly Case[]
): Promise<Pick<GenChain, 'a1' | 'lca'>> {
	const a1 = await loadFile(
		ctx,
		'a1',
		sides(cases),
		({ kase, type }) => idOf('a1', kase, type),
		({ kase, type }) => a1Hash(ctx, kase, type)
	);
	const lca = await loadFile(
		ctx,
		'LCA_results',
		sides(cases),
		({ kase, type }) => idOf('LCA_results', kase, type),
		({ kase, type }) => lcaHash(ctx, kase, type, a1.kept.get(idOf('a1', kase, type)))
	);
	return { a1, lca };
}

/** Loads a1, LCA and interaction, each checked against the records it builds on. */
export async function loadGenChain(ctx: StageContext, cases: readonly Case[]): Promise<GenChain> {
	const { a1, lca } = await loadJudgedA1(ctx, cases);
	const interaction = await loadFile(
		ctx,
		'interaction',
		cases,
		(k) => idOf('interaction', k),
		(k) =>
			interactionHash(
				ctx,
				k,
				a1.kept.get(idOf('a1', k, 'underspecified')),
				lca.kept.get(idOf('LCA_results', k, 'underspecified'))
			)
	);
	return { a1, lca, interaction };
}

function pairedOrder(file: StageFile, cases: readonly Case[]): string[] {
	return cases.flatMap((kase) => HISTORY_TYPES.map((type) => idOf(file, kase, type)));
}

async function generateA1(ctx: StageContext, kase: Case, type: HistoryType): Promise<A1Record> {
	const prompt = a1Prompt(ctx, kase, type);
	const result = await ctx.call('lexawn', prompt, kase, { historyType: type });
	return {
		case_number: kase.case_number_value,
		history_type: type,
		history: historyOf(kase, type),
		response: result.response,
		reasoning: result.reasoning,
		input_sha256: await a1Hash(ctx, kase, type, prompt)
	};
}

export async function judgeA1(ctx: StageContext, kase: Case, a1: A1Head): Promise<LcaResultRecord> {
	const type = a1.record.history_type;
	const { response } = a1.record;
	const prompt = lcaPrompt(ctx, response);
	const { label } = await ctx.judge('judge_lca', prompt, kase, JudgeLcaOutput, {
		historyType: type
	});
	return {
		case_number: kase.case_number_value,
		cause_of_action: kase.cause_of_action,
		history_type: type,
		response,
		label,
		input_sha256: await lcaHash(ctx, kase, type, a1, prompt)
	};
}

/**
 * Continues the underspecified history (PROTOCOL.md §4.1c). Round 1 is the a1 response with its LCA
 * label. A judgment ends the interaction; a clarification gets a user reply and, in rounds 1–2,
 * a new lexawn response labelled by the LCA judge. A third clarification gets its reply, then
 * `force_judge` gives the final response: at most 4 new assistant responses.
 */
async function interact(
	ctx: StageContext,
	kase: Case,
	a1: A1Head,
	lca: LcaHead
): Promise<InteractionRecord> {
	const history: History = [...kase.underspecified];
	const rounds: InteractionRound[] = [];
	let turn: { assistant: string; reasoning: string | null; label: LcaLabel } = {
		assistant: a1.record.response,
		reasoning: a1.record.reasoning ?? null,
		label: lca.record.label
	};
	const finish = async (stop: 'judgment' | 'budget') => ({
		case_number: kase.case_number_value,
		initial_history: kase.underspecified,
		rounds,
		stop_reason: stop,
		final_response: rounds[rounds.length - 1].assistant,
		history,
		input_sha256: await interactionHash(ctx, kase, a1, lca)
	});
	for (let round = 1; round <= QUESTION_BUDGET; round++) {
		const before = [...history];
		history.push({ role: 'assistant', content: turn.assistant });
		if (turn.label === 'judgment') {
			rounds.push({ round, ...turn, user_reply: null });
			return finish('judgment');
		}
		const reply = await askUser(ctx, kase, before, turn.assistant, { round });
		rounds.push({ round, ...turn, user_reply: reply });
		history.push({ role: 'user', content: reply });
		if (round < QUESTION_BUDGET) {
			// The new response is the next round's assistant turn.
			const next = await ctx.call(
				'lexawn',
				ctx.fill('lexawn', { history: renderHistory(history) }),
				kase,
				{ round: round + 1 }
			);
			const { label } = await ctx.judge(
				'judge_lca',
				lcaPrompt(ctx, next.response),
				kase,
				JudgeLcaOutput,
				{ round: round + 1 }
			);
			turn = { assistant: next.response, reasoning: next.reasoning, label };
		}
	}
	const forced = await ctx.call(
		'force_judge',
		ctx.fill('force_judge', { history: renderHistory(history) }),
		kase,
		{ round: QUESTION_BUDGET + 1 }
	);
	history.push({ role: 'assistant', content: forced.response });
	rounds.push({
		round: QUESTION_BUDGET + 1,
		assistant: forced.response,
		reasoning: forced.reasoning,
		label: 'forced',
		user_reply: null
	});
	return finish('budget');
}

export async function prepareGen(
	ctx: StageContext,
	cases: readonly Case[]
): Promise<PreparedStage> {
	const chain = await loadGenChain(ctx, cases);
	const isDone = (kase: Case) =>
		chain.interaction.kept.has(idOf('interaction', kase)) &&
		HISTORY_TYPES.every(
			(t) =>
				chain.a1.kept.has(idOf('a1', kase, t)) && chain.lca.kept.has(idOf('LCA_results', kase, t))
		);
	const pending = cases.filter((kase) => !isDone(kase));
	return {
		pending,
		resumed: cases.length - pending.length,
		order: {
			a1: pairedOrder('a1', cases),
			LCA_results: pairedOrder('LCA_results', cases),
			interaction: cases.map((kase) => idOf('interaction', kase))
		},
		async runCase(kase) {
			const fresh: [StageFile, AnyRecord][] = [];
			const [, under] = await settleAll(
				HISTORY_TYPES.map(async (type) => {
					let a1 = chain.a1.kept.get(idOf('a1', kase, type));
					if (!a1) {
						const made = await generateA1(ctx, kase, type);
						fresh.push(['a1', made]);
						a1 = await recordHead('a1', made);
					}
					let lca = chain.lca.kept.get(idOf('LCA_results', kase, type));
					if (!lca) {
						const made = await judgeA1(ctx, kase, a1);
						fresh.push(['LCA_results', made]);
						// Only the underspecified label goes on, into the interaction, which hashes it.
						if (type === 'complete') return null;
						lca = await recordHead('LCA_results', made);
					}
					return { a1, lca };
				})
			);
			if (!chain.interaction.kept.has(idOf('interaction', kase))) {
				fresh.push(['interaction', await interact(ctx, kase, under!.a1, under!.lca)]);
			}
			// Saved in file order, complete before underspecified, whichever call finished first.
			const rank = ([file, record]: [StageFile, AnyRecord]) =>
				STAGE_OUTPUTS.gen.indexOf(file) * 2 + (record.history_type === 'underspecified' ? 1 : 0);
			fresh.sort((a, b) => rank(a) - rank(b));
			// One record at a time, in file order: a store that refuses one (a full disk) keeps
			// exactly the records before it (tests/unit/bad-input/idb-quota.spec.ts).
			for (const [file, record] of fresh) await ctx.save(file, record);
		}
	};
}

/**
 * Stage `lca`: labels saved a1 responses that have no LCA result yet. It never generates a1
 * and never overwrites a saved label, so it needs a1 complete for the selected cases.
 */
export async function prepareLca(
	ctx: StageContext,
	cases: readonly Case[]
): Promise<PreparedStage> {
	// Interactions are not read: gen checks them against these labels when it next runs.
	const chain = await loadJudgedA1(ctx, cases);
	requireComplete(ctx, 'lca', 'a1', chain.a1.missing, cases.length * 2, 'gen');
	const pending = cases.filter((kase) =>
		HISTORY_TYPES.some((t) => !chain.lca.kept.has(idOf('LCA_results', kase, t)))
	);
	return {
		pending,
		resumed: cases.length - pending.length,
		order: { LCA_results: pairedOrder('LCA_results', cases) },
		async runCase(kase) {
			const fresh = await settleAll(
				HISTORY_TYPES.filter((t) => !chain.lca.kept.has(idOf('LCA_results', kase, t))).map((t) =>
					judgeA1(ctx, kase, chain.a1.kept.get(idOf('a1', kase, t))!)
				)
			);
			for (const record of fresh) await ctx.save('LCA_results', record);
		}
	};
}

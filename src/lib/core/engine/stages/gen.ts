/**
 * Stage `gen` (SPEC §4.1): a1 → LCA → interaction, per case. Also the `lca` re-judge stage,
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
	LcaResultRecord,
	StageFile
} from '../../records';
import type { Checkpoint } from '../../store/resume';
import { recordSha256, type StageContext } from '../context';
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

/** Clarification questions the evaluated model may ask before its answer is forced. */
export const QUESTION_BUDGET = 3;

/** The saved state of a run's gen files, each checked against this run's inputs. */
export interface GenChain {
	a1: Checkpoint<A1Record>;
	lca: Checkpoint<LcaResultRecord>;
	interaction: Checkpoint<InteractionRecord>;
}

function a1Prompt(ctx: StageContext, kase: Case, type: HistoryType): string {
	return ctx.fill('lexawn', { history: renderHistory(historyOf(kase, type)) });
}

function a1Hash(ctx: StageContext, kase: Case, type: HistoryType): Promise<string> {
	return ctx.inputSha256('a1', {
		case_number: kase.case_number,
		history_type: type,
		prompt: a1Prompt(ctx, kase, type),
		models: { evaluated: ctx.models.evaluated }
	});
}

function lcaPrompt(ctx: StageContext, response: string): string {
	return ctx.fill('judge_lca', { response });
}

/** Without a saved a1 the hash cannot match any saved LCA record: that record is then stale. */
async function lcaHash(ctx: StageContext, kase: Case, type: HistoryType, a1: A1Record | undefined) {
	return ctx.inputSha256('LCA_results', {
		case_number: kase.case_number,
		cause_of_action: kase.cause_of_action,
		history_type: type,
		prompt: a1 ? lcaPrompt(ctx, a1.response) : null,
		models: { judge: ctx.models.judge },
		upstream: await recordSha256(a1)
	});
}

/**
 * The interaction's later prompts depend on generated text, so its hash holds what determines
 * them: the history, the hidden facts the user model reads, the templates, the models and the
 * round-1 records it continues from.
 */
async function interactionHash(
	ctx: StageContext,
	kase: Case,
	a1: A1Record | undefined,
	lca: LcaResultRecord | undefined
) {
	const { lexawn, user_standard, judge_lca, force_judge } = ctx.pack.templates;
	return ctx.inputSha256('interaction', {
		case_number: kase.case_number,
		initial_history: kase.underspecified,
		key_details: keyDetailsText(kase.key_details),
		templates: { lexawn, user_standard, judge_lca, force_judge },
		models: ctx.models,
		upstream: [await recordSha256(a1), await recordSha256(lca)]
	});
}

/** Loads a1 and LCA, each checked against the records it builds on. */
async function loadJudgedA1(
	ctx: StageContext,
	cases: readonly Case[]
): Promise<Pick<GenChain, 'a1' | 'lca'>> {
	const pairs = (file: StageFile, hash: (kase: Case, type: HistoryType) => Promise<string>) =>
		cases.flatMap((kase) =>
			HISTORY_TYPES.map((type) => [idOf(file, kase, type), hash(kase, type)] as const)
		);
	const a1 = await loadFile(
		ctx,
		'a1',
		pairs('a1', (k, t) => a1Hash(ctx, k, t))
	);
	const lca = await loadFile(
		ctx,
		'LCA_results',
		pairs('LCA_results', (k, t) => lcaHash(ctx, k, t, a1.kept.get(idOf('a1', k, t))))
	);
	return { a1, lca };
}

/** Loads a1, LCA and interaction, each checked against the records it builds on. */
export async function loadGenChain(ctx: StageContext, cases: readonly Case[]): Promise<GenChain> {
	const { a1, lca } = await loadJudgedA1(ctx, cases);
	const interaction = await loadFile(
		ctx,
		'interaction',
		cases.map(
			(k) =>
				[
					idOf('interaction', k),
					interactionHash(
						ctx,
						k,
						a1.kept.get(idOf('a1', k, 'underspecified')),
						lca.kept.get(idOf('LCA_results', k, 'underspecified'))
					)
				] as const
		)
	);
	return { a1, lca, interaction };
}

function pairedOrder(file: StageFile, cases: readonly Case[]): string[] {
	return cases.flatMap((kase) => HISTORY_TYPES.map((type) => idOf(file, kase, type)));
}

async function generateA1(ctx: StageContext, kase: Case, type: HistoryType): Promise<A1Record> {
	const result = await ctx.call('lexawn', a1Prompt(ctx, kase, type), kase);
	return {
		case_number: kase.case_number,
		history_type: type,
		history: historyOf(kase, type),
		response: result.response,
		reasoning: result.reasoning,
		input_sha256: await a1Hash(ctx, kase, type)
	};
}

async function judgeA1(ctx: StageContext, kase: Case, a1: A1Record): Promise<LcaResultRecord> {
	const type = a1.history_type;
	const { label } = await ctx.judge('judge_lca', lcaPrompt(ctx, a1.response), kase, JudgeLcaOutput);
	return {
		case_number: kase.case_number,
		cause_of_action: kase.cause_of_action,
		history_type: type,
		response: a1.response,
		label,
		input_sha256: await lcaHash(ctx, kase, type, a1)
	};
}

/**
 * Continues the underspecified history (SPEC §4.1c). Round 1 is the a1 response with its LCA
 * label. A judgment ends the interaction; a clarification gets a user reply and, in rounds 1–2,
 * a new lexawn response labelled by the LCA judge. A third clarification gets its reply, then
 * `force_judge` gives the final response: at most 4 new assistant responses.
 */
async function interact(
	ctx: StageContext,
	kase: Case,
	a1: A1Record,
	lca: LcaResultRecord
): Promise<InteractionRecord> {
	const history: History = [...kase.underspecified];
	const rounds: InteractionRound[] = [];
	let turn: { assistant: string; reasoning: string | null; label: LcaLabel } = {
		assistant: a1.response,
		reasoning: a1.reasoning ?? null,
		label: lca.label
	};
	const finish = async (stop: 'judgment' | 'budget') => ({
		case_number: kase.case_number,
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
		const reply = await askUser(ctx, kase, before, turn.assistant);
		rounds.push({ round, ...turn, user_reply: reply });
		history.push({ role: 'user', content: reply });
		if (round < QUESTION_BUDGET) {
			const next = await ctx.call(
				'lexawn',
				ctx.fill('lexawn', { history: renderHistory(history) }),
				kase
			);
			const { label } = await ctx.judge(
				'judge_lca',
				lcaPrompt(ctx, next.response),
				kase,
				JudgeLcaOutput
			);
			turn = { assistant: next.response, reasoning: next.reasoning, label };
		}
	}
	const forced = await ctx.call(
		'force_judge',
		ctx.fill('force_judge', { history: renderHistory(history) }),
		kase
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
						a1 = await generateA1(ctx, kase, type);
						fresh.push(['a1', a1]);
					}
					let lca = chain.lca.kept.get(idOf('LCA_results', kase, type));
					if (!lca) {
						lca = await judgeA1(ctx, kase, a1);
						fresh.push(['LCA_results', lca]);
					}
					return { a1, lca };
				})
			);
			if (!chain.interaction.kept.has(idOf('interaction', kase))) {
				fresh.push(['interaction', await interact(ctx, kase, under.a1, under.lca)]);
			}
			// Saved in file order, complete before underspecified, whichever call finished first.
			const rank = ([file, record]: [StageFile, AnyRecord]) =>
				GEN_FILES.indexOf(file) * 2 + (record.history_type === 'underspecified' ? 1 : 0);
			fresh.sort((a, b) => rank(a) - rank(b));
			for (const [file, record] of fresh) await ctx.save(file, record);
		}
	};
}

const GEN_FILES: readonly StageFile[] = ['a1', 'LCA_results', 'interaction'];

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

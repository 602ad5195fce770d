/**
 * Stage `dcg` (PROTOCOL.md §4.2): two forced clarification questions with a grounded user reply in
 * between, each judged against the focal points and key details. Independent of gen: the
 * questions are asked whatever the LCA decision, and questions already in the benchmark
 * history are never judged.
 */
import { focalPointsText, keyDetailsText, renderHistory } from '../../dataset/render';
import type { Case } from '../../dataset/types';
import { JudgeDcgOutput } from '../../model/output';
import type { DcgResultRecord, ForceAskRecord } from '../../records';
import { recordHead, type RecordHead } from '../../store/heads';
import type { StageContext } from '../context';
import { askUser, idOf, loadFile, settleAll, type PreparedStage } from './shared';

function askPrompt(ctx: StageContext, kase: Case): string {
	return ctx.fill('force_ask', { history: renderHistory(kase.underspecified) });
}

function forceAskHash(ctx: StageContext, kase: Case): Promise<string> {
	const { force_ask, user_standard } = ctx.pack.templates;
	return ctx.inputSha256('force_ask', idOf('force_ask', kase), [], () => ({
		case_number: kase.case_number,
		history: kase.underspecified,
		key_details: keyDetailsText(kase.key_details),
		prompt: askPrompt(ctx, kase),
		templates: { force_ask, user_standard },
		models: { evaluated: ctx.models.evaluated, user: ctx.models.user }
	}));
}

type Asked = RecordHead<'force_ask'>;

function judgePrompts(ctx: StageContext, kase: Case, asked: Asked): string[] {
	return asked.record.rounds.map((r) =>
		ctx.fill('judge_dcg', {
			focal_points: focalPointsText(kase.focal_points),
			key_details: keyDetailsText(kase.key_details),
			question: r.question
		})
	);
}

export function dcgHash(ctx: StageContext, kase: Case, asked: Asked | undefined) {
	const upstream = asked?.record_sha256 ?? null;
	return ctx.inputSha256('DCG_results', idOf('DCG_results', kase), [upstream], () => ({
		case_number: kase.case_number,
		cause_of_action: kase.cause_of_action,
		prompts: asked ? judgePrompts(ctx, kase, asked) : null,
		models: { judge: ctx.models.judge },
		upstream
	}));
}

async function askTwice(ctx: StageContext, kase: Case): Promise<ForceAskRecord> {
	const first = await ctx.call('force_ask', askPrompt(ctx, kase), kase, { round: 1 });
	const reply = await askUser(ctx, kase, kase.underspecified, first.response, { round: 1 });
	const continued = [
		...kase.underspecified,
		{ role: 'assistant' as const, content: first.response },
		{ role: 'user' as const, content: reply }
	];
	const second = await ctx.call(
		'force_ask',
		ctx.fill('force_ask', { history: renderHistory(continued) }),
		kase,
		{ round: 2 }
	);
	return {
		case_number: kase.case_number_value,
		history: kase.underspecified,
		rounds: [
			{ round: 1, question: first.response, reasoning: first.reasoning, user_reply: reply },
			{ round: 2, question: second.response, reasoning: second.reasoning }
		],
		input_sha256: await forceAskHash(ctx, kase)
	};
}

export async function judgeQuestions(
	ctx: StageContext,
	kase: Case,
	asked: Asked
): Promise<DcgResultRecord> {
	const [first, second] = await settleAll(
		judgePrompts(ctx, kase, asked).map((prompt, i) =>
			ctx.judge('judge_dcg', prompt, kase, JudgeDcgOutput, { round: i + 1 })
		)
	);
	const round_labels: DcgResultRecord['round_labels'] = [first.label, second.label];
	return {
		case_number: kase.case_number_value,
		cause_of_action: kase.cause_of_action,
		questions: asked.record.rounds.map((r) => r.question),
		round_labels,
		success: round_labels.includes('是'),
		input_sha256: await dcgHash(ctx, kase, asked)
	};
}

export async function prepareDcg(
	ctx: StageContext,
	cases: readonly Case[]
): Promise<PreparedStage> {
	const asked = await loadFile(
		ctx,
		'force_ask',
		cases,
		(k) => idOf('force_ask', k),
		(k) => forceAskHash(ctx, k)
	);
	const askedOf = (kase: Case) => asked.kept.get(idOf('force_ask', kase));
	const judged = await loadFile(
		ctx,
		'DCG_results',
		cases,
		(k) => idOf('DCG_results', k),
		(k) => dcgHash(ctx, k, askedOf(k))
	);
	const pending = cases.filter((k) => !judged.kept.has(idOf('DCG_results', k)));
	return {
		pending,
		resumed: cases.length - pending.length,
		order: {
			force_ask: cases.map((k) => idOf('force_ask', k)),
			DCG_results: cases.map((k) => idOf('DCG_results', k))
		},
		async runCase(kase) {
			const saved = askedOf(kase);
			const made = saved ? null : await askTwice(ctx, kase);
			const questions = saved ?? (await recordHead('force_ask', made!));
			const result = await judgeQuestions(ctx, kase, questions);
			if (made) await ctx.save('force_ask', made);
			await ctx.save('DCG_results', result);
		}
	};
}

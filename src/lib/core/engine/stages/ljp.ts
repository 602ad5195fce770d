/**
 * The three LJP stages (PROTOCOL.md §4.3–4.5). Direct and Gold each generate a dedicated
 * `force_judge` response (Gold never reuses an a1 response); Interaction reads the final
 * response of each saved interaction. All three extract verdicts with `judge_extract`, which
 * sees the claim texts in order and the response, never the gold verdicts.
 */
import { renderHistory } from '../../dataset/render';
import type { Case } from '../../dataset/types';
import { judgeExtractOutput } from '../../model/output';
import { claimsText } from '../../prompts/fill';
import { escapeControl } from '../../text/escape-control';
import type { ForceJudgeRecord, HistoryType, LjpResultRecord } from '../../records';
import type { LjpFile } from '../../protocol';
import type { StageFile } from '../../record-names';
import { recordHead, type RecordHead } from '../../store/heads';
import type { StageContext } from '../context';
import { loadGenChain } from './gen';
import { historyOf, idOf, loadFile, requireComplete, type PreparedStage } from './shared';

function extractPrompt(ctx: StageContext, kase: Case, response: string): string {
	return ctx.fill('judge_extract', {
		claims: claimsText(kase.claims.map((c) => c.claim)),
		response
	});
}

/** The saved record a prediction comes from: its SHA-256, and the response in it that is scored. */
interface Source {
	sha256: string;
	response: string;
}

/** Without a saved source the hash cannot match any saved result: that result is then stale. */
export function ljpHash(ctx: StageContext, file: LjpFile, kase: Case, source: Source | undefined) {
	const upstream = source?.sha256 ?? null;
	return ctx.inputSha256(file, idOf(file, kase), [upstream], () => ({
		case_number: kase.case_number,
		cause_of_action: kase.cause_of_action,
		claims: kase.claims,
		prompt: source ? extractPrompt(ctx, kase, source.response) : null,
		models: { judge: ctx.models.judge },
		upstream
	}));
}

export async function extract(
	ctx: StageContext,
	file: LjpFile,
	kase: Case,
	source: Source
): Promise<LjpResultRecord> {
	const { verdicts } = await ctx.judge(
		'judge_extract',
		extractPrompt(ctx, kase, source.response),
		kase,
		judgeExtractOutput(kase.claims.length)
	);
	return {
		case_number: kase.case_number_value,
		cause_of_action: kase.cause_of_action,
		claims: kase.claims.map((c) => c.claim),
		predicted: verdicts,
		gold: kase.claims.map((c) => c.verdict),
		response: source.response,
		input_sha256: await ljpHash(ctx, file, kase, source)
	};
}

/** Direct (underspecified history) or Gold (complete history): a dedicated prediction, then extraction. */
function prepareForced(
	responseFile: 'a1_direct' | 'a1_force_judge',
	resultFile: 'LJP_direct' | 'LJP_gold',
	type: HistoryType
) {
	return async (ctx: StageContext, cases: readonly Case[]): Promise<PreparedStage> => {
		const prompt = (kase: Case) =>
			ctx.fill('force_judge', { history: renderHistory(historyOf(kase, type)) });
		// `filled`: the prompt when the caller has it already (the same fill, not made twice).
		const responseHash = (kase: Case, filled?: string) =>
			ctx.inputSha256(responseFile, idOf(responseFile, kase), [], () => ({
				case_number: kase.case_number,
				history_type: type,
				prompt: filled ?? prompt(kase),
				models: { evaluated: ctx.models.evaluated }
			}));
		const responses = await loadFile(
			ctx,
			responseFile,
			cases,
			(k) => idOf(responseFile, k),
			(k) => responseHash(k)
		);
		const sourceOf = (kase: Case): Source | undefined => {
			const saved = responses.kept.get(idOf(responseFile, kase));
			return saved && { sha256: saved.record_sha256, response: saved.record.response };
		};
		const results = await loadFile(
			ctx,
			resultFile,
			cases,
			(k) => idOf(resultFile, k),
			(k) => ljpHash(ctx, resultFile, k, sourceOf(k))
		);
		const pending = cases.filter((k) => !results.kept.has(idOf(resultFile, k)));
		return {
			pending,
			resumed: cases.length - pending.length,
			order: {
				[responseFile]: cases.map((k) => idOf(responseFile, k)),
				[resultFile]: cases.map((k) => idOf(resultFile, k))
			} as Partial<Record<StageFile, string[]>>,
			async runCase(kase) {
				let source = sourceOf(kase);
				let made: ForceJudgeRecord | null = null;
				if (!source) {
					const filled = prompt(kase);
					const result = await ctx.call('force_judge', filled, kase);
					made = {
						case_number: kase.case_number_value,
						history: historyOf(kase, type),
						response: result.response,
						reasoning: result.reasoning,
						input_sha256: await responseHash(kase, filled)
					};
					const head = await recordHead(responseFile, made);
					source = { sha256: head.record_sha256, response: made.response };
				}
				const scored = await extract(ctx, resultFile, kase, source);
				if (made) await ctx.save(responseFile, made);
				await ctx.save(resultFile, scored);
			}
		};
	};
}

export const prepareLjpDirect = prepareForced('a1_direct', 'LJP_direct', 'underspecified');
export const prepareLjpGold = prepareForced('a1_force_judge', 'LJP_gold', 'complete');

/**
 * Interaction: extraction from each saved interaction's final response. Alone it needs gen
 * complete for the selected cases. With `fresh` (gen runs in the same `runAll`), a case whose
 * interaction is not saved yet is `blocked` until gen saves it, and `fresh` then gives its head;
 * a saved LJP_interaction record whose interaction is missing does not fit (its upstream is gone).
 */
export async function prepareLjpInteraction(
	ctx: StageContext,
	cases: readonly Case[],
	fresh?: (kase: Case) => RecordHead<'interaction'> | undefined
): Promise<PreparedStage> {
	const chain = await loadGenChain(ctx, cases);
	if (!fresh) {
		requireComplete(
			ctx,
			'ljp-interaction',
			'interaction',
			chain.interaction.missing,
			cases.length,
			'gen'
		);
	}
	const savedOf = (kase: Case) => chain.interaction.kept.get(idOf('interaction', kase));
	const sourceOf = (saved: RecordHead<'interaction'> | undefined): Source | undefined =>
		saved && { sha256: saved.record_sha256, response: saved.record.final_response };
	const results = await loadFile(
		ctx,
		'LJP_interaction',
		cases,
		(k) => idOf('LJP_interaction', k),
		(k) => ljpHash(ctx, 'LJP_interaction', k, sourceOf(savedOf(k)))
	);
	const pending = cases.filter((k) => !results.kept.has(idOf('LJP_interaction', k)));
	return {
		pending,
		resumed: cases.length - pending.length,
		order: { LJP_interaction: cases.map((k) => idOf('LJP_interaction', k)) },
		blocked: (kase) => savedOf(kase) === undefined,
		async runCase(kase) {
			const source = sourceOf(savedOf(kase) ?? fresh?.(kase));
			if (!source) {
				throw new Error(
					`ljp-interaction started before the interaction of case_number ${escapeControl(String(kase.case_number))} was saved`
				);
			}
			await ctx.save('LJP_interaction', await extract(ctx, 'LJP_interaction', kase, source));
		}
	};
}

/**
 * How a re-judged run plans each stage (the `prepare` of `runStages`): the source's generation
 * records are copied as they are, and only the judge calls are made again, with this run's judge
 * and prompt pack. Saved records of the new run are checked as any run's are: a copy must carry
 * its source record's `input_sha256`, a judge record the hash of this run's judge inputs.
 */
import type { Case } from '../../dataset/types';
import type { StageFile } from '../../record-names';
import type { AnyRecord, HistoryType } from '../../records';
import type { RecordHead } from '../../store/heads';
import type { StageContext } from '../context';
import type { PrepareStage } from '../open-engine';
import { dcgHash, judgeQuestions } from '../stages/dcg';
import { judgeA1, lcaHash } from '../stages/gen';
import { extract, ljpHash } from '../stages/ljp';
import { HISTORY_TYPES, idOf, loadFile, settleAll } from '../stages/shared';
import { STAGE_OUTPUTS, type LjpFile, type StageName } from '../../protocol';
import { identitiesOf, REJUDGING, type RejudgeSource } from './source';

/** One judged record of a case: the case and, for LCA, its history. */
interface Side {
	kase: Case;
	type?: HistoryType;
}

/** Per judge file: the source file it judges, its expected hash, and the judge call. */
interface Judging {
	upstream: StageFile;
	hash(ctx: StageContext, side: Side, head: RecordHead): Promise<string>;
	judge(ctx: StageContext, side: Side, head: RecordHead): Promise<AnyRecord>;
}

type A1Head = RecordHead<'a1'>;
type AskedHead = RecordHead<'force_ask'>;

/** The response an LJP record scores, from the head of the record it comes from. */
function ljpSource(head: RecordHead) {
	const record = head.record as { response?: string; final_response?: string };
	return { sha256: head.record_sha256, response: record.final_response ?? record.response ?? '' };
}

function ljpJudging(file: LjpFile, upstream: StageFile): Judging {
	return {
		upstream,
		hash: (ctx, { kase }, head) => ljpHash(ctx, file, kase, ljpSource(head)),
		judge: (ctx, { kase }, head) => extract(ctx, file, kase, ljpSource(head))
	};
}

const JUDGING: Partial<Record<StageFile, Judging>> = {
	LCA_results: {
		upstream: 'a1',
		hash: (ctx, { kase, type }, head) => lcaHash(ctx, kase, type!, head as A1Head),
		judge: (ctx, { kase }, head) => judgeA1(ctx, kase, head as A1Head)
	},
	DCG_results: {
		upstream: 'force_ask',
		hash: (ctx, { kase }, head) => dcgHash(ctx, kase, head as AskedHead),
		judge: (ctx, { kase }, head) => judgeQuestions(ctx, kase, head as AskedHead)
	},
	LJP_direct: ljpJudging('LJP_direct', 'a1_direct'),
	LJP_gold: ljpJudging('LJP_gold', 'a1_force_judge'),
	LJP_interaction: ljpJudging('LJP_interaction', 'interaction')
};

function sidesOf(file: StageFile, cases: readonly Case[]): Side[] {
	return file === 'LCA_results'
		? cases.flatMap((kase) => HISTORY_TYPES.map((type) => ({ kase, type })))
		: cases.map((kase) => ({ kase }));
}

function prepareRejudged(source: RejudgeSource, stage: StageName): PrepareStage {
	const { copies, judged } = REJUDGING[stage]!;
	const judging = JUDGING[judged]!;
	const saved = (file: StageFile, id: string) => source.records.get(file)!.get(id)!;
	const upstreamOf = ({ kase, type }: Side) =>
		saved(judging.upstream, idOf(judging.upstream, kase, type)).head;
	return async (ctx, cases) => {
		const copied = await Promise.all(
			copies.map((file) =>
				loadFile(
					ctx,
					file,
					identitiesOf(file, cases),
					(id) => id,
					async (id) => saved(file, id).record.input_sha256
				)
			)
		);
		const results = await loadFile(
			ctx,
			judged,
			sidesOf(judged, cases),
			(side) => idOf(judged, side.kase, side.type),
			(side) => judging.hash(ctx, side, upstreamOf(side))
		);
		const missingCopies = (kase: Case) =>
			copies.flatMap((file, i) =>
				identitiesOf(file, [kase])
					.filter((id) => !copied[i].kept.has(id))
					.map((id) => [file, saved(file, id).record] as [StageFile, AnyRecord])
			);
		const missingSides = (kase: Case) =>
			sidesOf(judged, [kase]).filter((s) => !results.kept.has(idOf(judged, s.kase, s.type)));
		const pending = cases.filter((k) => missingCopies(k).length + missingSides(k).length > 0);
		return {
			pending,
			resumed: cases.length - pending.length,
			order: Object.fromEntries(
				[...copies, judged].map((file) => [file, identitiesOf(file, cases)])
			),
			async runCase(kase) {
				const made = await settleAll(
					missingSides(kase).map((side) => judging.judge(ctx, side, upstreamOf(side)))
				);
				const fresh = [
					...missingCopies(kase),
					...made.map((r) => [judged, r] as [StageFile, AnyRecord])
				];
				// In file order, complete before underspecified, as the stage itself saves them.
				const rank = ([file, record]: [StageFile, AnyRecord]) =>
					STAGE_OUTPUTS[stage].indexOf(file) * 2 +
					(record.history_type === 'underspecified' ? 1 : 0);
				fresh.sort((a, b) => rank(a) - rank(b));
				for (const [file, record] of fresh) await ctx.save(file, record);
			}
		};
	};
}

/** The plan of each stage a re-judged run runs, for `runStages`' `prepare`. */
export function rejudgePreparers(source: RejudgeSource): Partial<Record<StageName, PrepareStage>> {
	return Object.fromEntries(source.stages.map((stage) => [stage, prepareRejudged(source, stage)]));
}

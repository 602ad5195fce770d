/**
 * Everything the inspector shows of one case of one run, put together from its saved records
 * and, when the run's dataset is loaded, from the dataset's case. Records alone are enough: an
 * imported bundle carries both histories, every response and label, the claims and the gold
 * verdicts. Framework-free.
 */
import { classOf } from '$lib/core/dataset/categories';
import type { Case, CategoryMap, History, Verdict } from '$lib/core/dataset/types';
import { STAGE_FILE_NAMES, type StageFile } from '$lib/core/record-names';
import type {
	A1Record,
	DcgLabel,
	ForceAskRecord,
	ForceJudgeRecord,
	HistoryType,
	InteractionRecord,
	LcaLabel,
	RecordsByFile
} from '$lib/core/records';
import { LJP_SETUPS, type LjpSetup } from '$lib/core/metrics/types';

/** The label a history should get: ask when facts are missing, answer when they are all there. */
export const EXPECTED_LABEL: Record<HistoryType, LcaLabel> = {
	complete: 'judgment',
	underspecified: 'clarification'
};

export interface FirstResponse {
	historyType: HistoryType;
	record: A1Record;
	/** The LCA judge's label, when classified. */
	label: LcaLabel | null;
}

export interface LjpRow {
	claim: string;
	gold: Verdict | null;
	/** Predicted verdict per setup; null where the setup has no record. */
	predicted: Record<LjpSetup, Verdict | null>;
}

export interface CaseView {
	caseNumber: string;
	cause: string | null;
	cls: string | null;
	histories: {
		complete: History | null;
		underspecified: History | null;
		/** `dataset`: the loaded dataset's case; `records`: the histories saved with the records. */
		from: 'dataset' | 'records';
	};
	/** The dataset's case (hidden facts, focal points), when the run's dataset is loaded. */
	datasetCase: Case | null;
	firstResponses: FirstResponse[];
	interaction: InteractionRecord | null;
	dcg: {
		record: ForceAskRecord | null;
		labels: [DcgLabel, DcgLabel] | null;
		success: boolean | null;
	};
	ljp: {
		rows: LjpRow[];
		/** The prediction responses of the Direct and Gold setups (Interaction's is the final one). */
		responses: { setup: 'direct' | 'gold'; record: ForceJudgeRecord }[];
		setups: LjpSetup[];
	};
	/**
	 * Stage files with no record for this case (the LJP prediction responses aside: their
	 * setups' results say the same).
	 */
	missing: StageFile[];
}

export function caseView(
	caseNumber: string,
	records: RecordsByFile,
	datasetCase: Case | null,
	categories: CategoryMap
): CaseView {
	const a1 = (t: HistoryType) => records.a1.find((r) => r.history_type === t) ?? null;
	const lca = (t: HistoryType) => records.LCA_results.find((r) => r.history_type === t) ?? null;
	const interaction = records.interaction[0] ?? null;
	const forceAsk = records.force_ask[0] ?? null;
	const direct = records.a1_direct[0] ?? null;
	const gold = records.a1_force_judge[0] ?? null;
	const dcg = records.DCG_results[0] ?? null;
	const ljp: Record<LjpSetup, (typeof records.LJP_direct)[number] | null> = {
		direct: records.LJP_direct[0] ?? null,
		gold: records.LJP_gold[0] ?? null,
		interaction: records.LJP_interaction[0] ?? null
	};

	const cause =
		datasetCase?.cause_of_action ??
		[...records.LCA_results, ...records.DCG_results, ...Object.values(ljp)].find(
			(r) => r?.cause_of_action
		)?.cause_of_action ??
		null;

	const histories: CaseView['histories'] = datasetCase
		? {
				complete: datasetCase.complete,
				underspecified: datasetCase.underspecified,
				from: 'dataset'
			}
		: {
				complete: a1('complete')?.history ?? gold?.history ?? null,
				underspecified:
					a1('underspecified')?.history ??
					forceAsk?.history ??
					direct?.history ??
					interaction?.initial_history ??
					null,
				from: 'records'
			};

	const anyLjp = ljp.direct ?? ljp.gold ?? ljp.interaction;
	const claims = anyLjp?.claims ?? datasetCase?.claims.map((c) => c.claim) ?? [];
	const goldVerdicts = anyLjp?.gold ?? datasetCase?.claims.map((c) => c.verdict) ?? [];
	const rows: LjpRow[] = claims.map((claim, i) => ({
		claim,
		gold: goldVerdicts[i] ?? null,
		predicted: {
			direct: ljp.direct?.predicted[i] ?? null,
			gold: ljp.gold?.predicted[i] ?? null,
			interaction: ljp.interaction?.predicted[i] ?? null
		}
	}));

	const firstResponses = (['complete', 'underspecified'] as const)
		.map((t) => ({ historyType: t, record: a1(t), label: lca(t)?.label ?? null }))
		.filter((f): f is FirstResponse => f.record !== null);

	const missing = STAGE_FILE_NAMES.filter(
		(f) => f !== 'a1_direct' && f !== 'a1_force_judge' && records[f].length === 0
	);

	return {
		caseNumber,
		cause,
		cls: cause === null ? null : classOf(cause, categories),
		histories,
		datasetCase,
		firstResponses,
		interaction,
		dcg: {
			record: forceAsk,
			labels: dcg?.round_labels ?? null,
			success: dcg?.success ?? null
		},
		ljp: {
			rows,
			responses: [
				...(direct ? [{ setup: 'direct' as const, record: direct }] : []),
				...(gold ? [{ setup: 'gold' as const, record: gold }] : [])
			],
			setups: LJP_SETUPS.filter((s) => ljp[s] !== null)
		},
		missing
	};
}

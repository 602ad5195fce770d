/**
 * The canonical records of PROTOCOL.md §5, declared once. Every writer (engine, import) and every
 * reader (metrics, results, charts, export) goes through these schemas. Extra fields are
 * allowed (`.loose()`), as PROTOCOL.md §5 says, so bundles written by other tools still load.
 */
import { z } from 'zod';
import { CategoryMap, History, HistoryFields, Verdict } from './dataset/types';
import { DCG_LABELS, LCA_LABELS } from './protocol/decisions';
import { STAGE_PATHS, type StageFile } from './record-names';
import { OperationalEntry, Settings } from './run-config';

export {
	caseKey,
	MANIFEST_SCHEMA_VERSION,
	ROLES,
	STAGE_FILE_NAMES,
	STAGE_PATHS,
	type Role,
	type StageFile
} from './record-names';

const sha256Hex = z.string().regex(/^[0-9a-f]{64}$/, 'expected a 64-digit lowercase hex SHA-256');
/**
 * `case_number` keeps its JSON type (PROTOCOL.md §5): a string or an integer, as the dataset holds it.
 * Readers accept both and compare them as strings (`caseKey`), so `1001` and `"1001"` are one case.
 */
export const CaseNumber = z.union([z.string().min(1), z.number().int()]);
export type CaseNumber = z.infer<typeof CaseNumber>;
const caseNumber = CaseNumber;

export const HistoryType = z.enum(['complete', 'underspecified']);
export type HistoryType = z.infer<typeof HistoryType>;

export const LcaLabel = z.enum(LCA_LABELS);
export type LcaLabel = z.infer<typeof LcaLabel>;

export const DcgLabel = z.enum(DCG_LABELS);
export type DcgLabel = z.infer<typeof DcgLabel>;

/** The evaluated model's answer to a history: a first response (a1) or a forced judgment. */
const ANSWER = {
	history: History,
	response: z.string(),
	reasoning: z.string().nullable().optional(),
	input_sha256: sha256Hex
};

export const A1Record = z
	.object({ case_number: caseNumber, history_type: HistoryType, ...ANSWER })
	.loose();
export type A1Record = z.infer<typeof A1Record>;

export const InteractionRound = z
	.object({
		round: z.number().int().min(1).max(4),
		assistant: z.string(),
		/** `forced` marks the forced final prediction after the question budget ran out. */
		label: z.enum([...LCA_LABELS, 'forced']),
		user_reply: z.string().nullable()
	})
	.loose();
export type InteractionRound = z.infer<typeof InteractionRound>;

export const InteractionRecord = z
	.object({
		case_number: caseNumber,
		initial_history: History,
		rounds: z.array(InteractionRound).min(1).max(4),
		stop_reason: z.enum(['judgment', 'budget']),
		final_response: z.string(),
		history: History,
		input_sha256: sha256Hex
	})
	.loose();
export type InteractionRecord = z.infer<typeof InteractionRecord>;

export const ForceAskRecord = z
	.object({
		case_number: caseNumber,
		history: History,
		rounds: z.tuple([
			z.object({ round: z.literal(1), question: z.string(), user_reply: z.string() }).loose(),
			z.object({ round: z.literal(2), question: z.string() }).loose()
		]),
		input_sha256: sha256Hex
	})
	.loose();
export type ForceAskRecord = z.infer<typeof ForceAskRecord>;

export const ForceJudgeRecord = z.object({ case_number: caseNumber, ...ANSWER }).loose();
export type ForceJudgeRecord = z.infer<typeof ForceJudgeRecord>;

export const LcaResultRecord = z
	.object({
		case_number: caseNumber,
		cause_of_action: z.string(),
		history_type: HistoryType,
		response: z.string(),
		label: LcaLabel,
		input_sha256: sha256Hex
	})
	.loose();
export type LcaResultRecord = z.infer<typeof LcaResultRecord>;

export const DcgResultRecord = z
	.object({
		case_number: caseNumber,
		cause_of_action: z.string(),
		round_labels: z.tuple([DcgLabel, DcgLabel]),
		success: z.boolean(),
		input_sha256: sha256Hex
	})
	.loose()
	.refine((r) => r.success === r.round_labels.includes('是'), {
		message: 'success must be true exactly when a round label is 是'
	});
export type DcgResultRecord = z.infer<typeof DcgResultRecord>;

export const LjpResultRecord = z
	.object({
		case_number: caseNumber,
		cause_of_action: z.string(),
		claims: z.array(z.string()).min(1),
		predicted: z.array(Verdict),
		gold: z.array(Verdict),
		input_sha256: sha256Hex
	})
	.loose()
	.refine((r) => r.predicted.length === r.claims.length && r.gold.length === r.claims.length, {
		message: 'claims, predicted and gold must have the same length'
	});
export type LjpResultRecord = z.infer<typeof LjpResultRecord>;

/** Every JSONL file of the canonical layout, with its folder (`STAGE_PATHS`) and record schema. */
export const STAGE_FILES = {
	a1: { ...STAGE_PATHS.a1, schema: A1Record },
	interaction: { ...STAGE_PATHS.interaction, schema: InteractionRecord },
	force_ask: { ...STAGE_PATHS.force_ask, schema: ForceAskRecord },
	a1_direct: { ...STAGE_PATHS.a1_direct, schema: ForceJudgeRecord },
	a1_force_judge: { ...STAGE_PATHS.a1_force_judge, schema: ForceJudgeRecord },
	LCA_results: { ...STAGE_PATHS.LCA_results, schema: LcaResultRecord },
	DCG_results: { ...STAGE_PATHS.DCG_results, schema: DcgResultRecord },
	LJP_direct: { ...STAGE_PATHS.LJP_direct, schema: LjpResultRecord },
	LJP_gold: { ...STAGE_PATHS.LJP_gold, schema: LjpResultRecord },
	LJP_interaction: { ...STAGE_PATHS.LJP_interaction, schema: LjpResultRecord }
} as const satisfies Record<StageFile, unknown>;

/** The record type stored in each stage file. */
export type RecordOf<F extends StageFile> = z.infer<(typeof STAGE_FILES)[F]['schema']>;

/** Records of some cases of a run by stage file, each file's in stored order (a1 and LCA: two per case). */
export type RecordsByFile = {
	[F in StageFile]: RecordOf<F>[];
};

/** A record of any stage file; every one carries these two fields. */
export type AnyRecord = { case_number: CaseNumber; input_sha256: string } & Record<string, unknown>;

// Settings live with the rest of a run's configuration; re-exported as every record type is here.
export { DEFAULT_SETTINGS, OperationalEntry, Settings } from './run-config';

/**
 * What a re-judged run (`lexpilot rejudge`, PROTOCOL.md §5) shares with the run it re-judged: that
 * run's key, its judge, and what was judged again. Its generation files are copies of the source's.
 */
export const RejudgedFrom = z
	.object({
		/** The source run's id and model folder (its run key). */
		run_id: z.string().min(1),
		model_dir: z.string().min(1),
		/** The source run's judge model and prompt pack hash. */
		judge: z.string(),
		prompts_sha256: sha256Hex,
		/** The stages whose judge calls were made again, in the order they ran. */
		stages: z.array(z.string()),
		/** The generation files copied record for record from the source run. */
		shared_files: z.array(z.string())
	})
	.loose();
export type RejudgedFrom = z.infer<typeof RejudgedFrom>;

/** `runs/<run-id>/<model>/manifest.json`. Never holds a key. */
export const Manifest = z
	.object({
		schema_version: z.number().int(),
		tool: z.object({ name: z.string(), version: z.string() }).loose(),
		run_id: z.string().min(1),
		model_dir: z.string().min(1),
		created_at: z.string(),
		dataset: z
			.object({
				sha256: sha256Hex,
				n_cases: z.number().int().nonnegative(),
				selected_case_numbers: z.array(CaseNumber),
				history_fields: HistoryFields
			})
			.loose(),
		code_sha256: sha256Hex,
		prompts_sha256: sha256Hex,
		models: z.object({ evaluated: z.string(), user: z.string(), judge: z.string() }),
		endpoints: z.object({ evaluated: z.string(), user: z.string(), judge: z.string() }),
		/** As the run was first started; a resume never rewrites it. */
		settings: Settings,
		categories: CategoryMap,
		simulated: z.boolean(),
		/**
		 * The operational values (timeout, retries, concurrency) of the first start and of every
		 * resume that changed them, oldest first; the last one is in force. Optional: manifests
		 * written before it existed, or by another tool, have none. See `core/store/README.md`.
		 */
		operational_history: z.array(OperationalEntry).optional(),
		/** Only on a re-judged run: the run whose generation outputs it shares (`RejudgedFrom`). */
		rejudged_from: RejudgedFrom.optional(),
		/** `batch` for a run made in batch mode (PROTOCOL.md §5); absent for an interactive one. */
		mode: z.literal('batch').optional()
	})
	.loose();
export type Manifest = z.infer<typeof Manifest>;

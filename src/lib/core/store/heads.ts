/**
 * Record heads: what a resume reads instead of whole records. Most of a run's bytes are the
 * consultation histories that a1, interaction, force_ask and the forced-judgement records repeat
 * from the dataset (PROTOCOL.md §5 wants them there). The engine never reads them back: it rebuilds
 * prompts from the case, and later records name an earlier one by the SHA-256 of the whole
 * record. So a head is the record without its history fields, plus that SHA-256, computed once
 * when the record is saved.
 */
import { z } from 'zod';
import { CheckpointError } from '../errors';
import { coded } from '../said';
import { invalidRecord } from './checks';
import { sha256Canonical, sha256CanonicalSync } from '../hash';
import { STAGE_FILES, type AnyRecord, type RecordOf } from '../records';
import { STAGE_FILE_NAMES, type StageFile } from '../record-names';

/** The fields that repeat a dataset history; heads leave them out. */
export const HISTORY_FIELDS = ['history', 'initial_history'] as const;
type HistoryField = (typeof HISTORY_FIELDS)[number];

/** A record without its history fields (every other field, extra ones included, kept). */
export type HeadRecord<R> = { [K in keyof R as K extends HistoryField ? never : K]: R[K] };

/** What a resume needs of one saved record. */
export interface RecordHead<F extends StageFile = StageFile> {
	/** The record as saved, less `history` and `initial_history`. */
	record: HeadRecord<RecordOf<F>>;
	/**
	 * SHA-256 of the whole record's canonical JSON (histories included): how a later record's
	 * `input_sha256` names the record it builds on.
	 */
	record_sha256: string;
}

/** The record without its history fields; the record itself is not changed. */
export function withoutHistories<R extends object>(record: R): HeadRecord<R> {
	const head: Record<string, unknown> = {};
	for (const [key, value] of Object.entries(record)) {
		if (!(HISTORY_FIELDS as readonly string[]).includes(key)) head[key] = value;
	}
	return head as HeadRecord<R>;
}

/** The head of a whole record: one SHA-256 over it. */
export async function recordHead<F extends StageFile>(
	_file: F,
	record: RecordOf<F> | AnyRecord
): Promise<RecordHead<F>> {
	return {
		record: withoutHistories(record) as HeadRecord<RecordOf<F>>,
		record_sha256: await sha256Canonical(record)
	};
}

/**
 * `recordHead` at once, where a synchronous SHA-256 is installed (the CLI); null otherwise. Lets
 * a reader drop each whole record as soon as its head is made.
 */
export function recordHeadSync<F extends StageFile>(
	_file: F,
	record: RecordOf<F> | AnyRecord
): RecordHead<F> | null {
	const sha = sha256CanonicalSync(record);
	return sha === null
		? null
		: { record: withoutHistories(record) as HeadRecord<RecordOf<F>>, record_sha256: sha };
}

/** Each file's schema less its history fields: a head's record is checked like a record. */
const HEAD_SCHEMAS = Object.fromEntries(
	STAGE_FILE_NAMES.map((file) => {
		const schema = STAGE_FILES[file].schema as z.ZodObject;
		const present = HISTORY_FIELDS.filter((field) => field in schema.shape);
		// Refined schemas (DCG, LJP) carry no history, and zod refuses omit() on them.
		const mask = Object.fromEntries(present.map((field) => [field, true as const]));
		return [file, present.length ? schema.omit(mask as never) : schema];
	})
) as unknown as Record<StageFile, z.ZodType>;

const Sha256 = z.string().regex(/^[0-9a-f]{64}$/);

/**
 * Validates a stored head as `checkRecord` validates a record; `where` names the place
 * (`browser storage: AwN_gen/…/a1.jsonl, line 3`).
 */
export function checkHead<F extends StageFile>(
	file: F,
	value: unknown,
	where: string
): RecordHead<F> {
	const head = value as Partial<RecordHead> | null;
	if (!head || typeof head !== 'object' || !Sha256.safeParse(head.record_sha256).success) {
		throw new CheckpointError([coded('head_no_sha', { place: where })]);
	}
	const parsed = HEAD_SCHEMAS[file].safeParse(head.record);
	if (!parsed.success) {
		throw invalidRecord(where, parsed.error);
	}
	return { record: parsed.data as HeadRecord<RecordOf<F>>, record_sha256: head.record_sha256! };
}

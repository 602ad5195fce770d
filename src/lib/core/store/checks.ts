/** Schema checks every store applies on the way in and out, with errors that name the place. */
import type { z } from 'zod';
import { CheckpointError } from '../errors';
import { coded } from '../said';
import type { RunKey } from '../layout';
import { STAGE_FILES, type AnyRecord } from '../records';
import type { StageFile } from '../record-names';

/** The first problem of a record at `place`, its field named when it has one. */
export function invalidRecord(place: string, error: z.ZodError): CheckpointError {
	const issue = error.issues[0];
	return new CheckpointError([
		issue.path.length
			? coded('record_invalid_field', {
					place,
					field: issue.path.join('.'),
					detail: issue.message
				})
			: coded('record_invalid', { place, detail: issue.message })
	]);
}

/**
 * Validates a record against its stage file's schema. `where` names the place for the error
 * (`AwN_gen/r1/m/a1.jsonl, record 3` on read, the case on write).
 */
export function checkRecord(file: StageFile, value: unknown, where: string): AnyRecord {
	const parsed = STAGE_FILES[file].schema.safeParse(value);
	if (!parsed.success) throw invalidRecord(where, parsed.error);
	return parsed.data as AnyRecord;
}

/** Validates a record the engine is about to save; a failure is a bug, reported with the case. */
export function checkRecordToAppend(file: StageFile, record: AnyRecord, fileLabel: string): void {
	const cn = record?.case_number;
	const name = typeof cn === 'string' || typeof cn === 'number' ? String(cn) : '(missing)';
	checkRecord(file, record, `${fileLabel}: refusing to save the record of case_number ${name}`);
}

// Manifests are checked by `manifest-file.ts`, the one reader every consumer shares.

/** Orders runs by run id, then model folder, so every store lists them alike. */
export function compareRunKeys(a: RunKey, b: RunKey): number {
	if (a.runId !== b.runId) return a.runId < b.runId ? -1 : 1;
	if (a.modelDir !== b.modelDir) return a.modelDir < b.modelDir ? -1 : 1;
	return 0;
}

// Kept with the layout (no zod), re-exported for the stores' other users.
export { runLabel } from '../layout';

/**
 * The workbench database's schema: its name, its version and the upgrade steps that build it.
 */
import type { DBSchema, IDBPDatabase } from 'idb';
import type {
	BatchAnswerRow,
	BatchStateRow,
	CallRow,
	HeadRow,
	ManifestRow,
	PlanRow,
	RecordRow,
	ReviewRow
} from './idb-rows';

/** @default 'lexpilot-workbench' */
export const DEFAULT_DB_NAME = 'lexpilot-workbench';

/** Raise with each schema change and add a step to `upgrade`; never edit a released step. */
export const DB_VERSION = 6;

/** The database's schema (exported for tests that open a second, raw connection). */
export interface WorkbenchDb extends DBSchema {
	manifests: { key: [string, string]; value: ManifestRow };
	calls: {
		key: [string, string, number];
		value: CallRow;
		/** [runId, modelDir, case_key]: one case's calls, in seq order. */
		indexes: { by_case: [string, string, string] };
	};
	heads: { key: [string, string, string, number]; value: HeadRow };
	reviews: { key: [string, string, string, string]; value: ReviewRow };
	batch_states: { key: [string, string]; value: BatchStateRow };
	batch_answers: { key: [string, string, number]; value: BatchAnswerRow };
	/** A run plan's spending cap and spend so far, by plan id (not a run's: kept when runs go). */
	plans: { key: string; value: PlanRow };
	records: {
		key: [string, string, string, number];
		value: RecordRow;
		indexes: {
			/** [runId, modelDir, file]: one stage file, in seq order. */
			by_file: [string, string, string];
			/** [runId, modelDir, file, case_number, history_type], unique: a record is saved once. */
			by_identity: [string, string, string, string, string];
		};
	};
}

export type Db = IDBPDatabase<WorkbenchDb>;

/** Every store that holds rows of a run: deleting a run clears it from each. */
export const RUN_STORES = [
	'manifests',
	'records',
	'heads',
	'calls',
	'reviews',
	'batch_states',
	'batch_answers'
] as const;

export function upgrade(db: Db, oldVersion: number): void {
	if (oldVersion < 1) {
		db.createObjectStore('manifests', { keyPath: ['runId', 'modelDir'] });
		const records = db.createObjectStore('records', {
			keyPath: ['runId', 'modelDir', 'file', 'seq']
		});
		records.createIndex('by_file', ['runId', 'modelDir', 'file']);
		records.createIndex(
			'by_identity',
			['runId', 'modelDir', 'file', 'case_number', 'history_type'],
			{
				unique: true
			}
		);
	}
	if (oldVersion < 2) {
		// Saved runs get their heads on their first readHeads rather than here: a head holds the
		// record's SHA-256, WebCrypto hashes asynchronously, and an upgrade transaction ends at the
		// first await that is not one of its own requests.
		db.createObjectStore('heads', { keyPath: ['runId', 'modelDir', 'file', 'seq'] });
	}
	if (oldVersion < 3) {
		const calls = db.createObjectStore('calls', { keyPath: ['runId', 'modelDir', 'seq'] });
		calls.createIndex('by_case', ['runId', 'modelDir', 'case_key']);
	}
	if (oldVersion < 4) {
		db.createObjectStore('reviews', { keyPath: ['runId', 'modelDir', 'reviewer', 'decision'] });
	}
	if (oldVersion < 5) {
		db.createObjectStore('batch_states', { keyPath: ['runId', 'modelDir'] });
		db.createObjectStore('batch_answers', { keyPath: ['runId', 'modelDir', 'seq'] });
	}
	if (oldVersion < 6) {
		db.createObjectStore('plans', { keyPath: 'planId' });
	}
}

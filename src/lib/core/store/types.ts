/** Where finished records live: memory (tests), IndexedDB (browser), files (CLI). */
import type { RunKey } from '../layout';
import type { AnyRecord, Manifest, OperationalEntry, RecordsByFile, StageFile } from '../records';
import type { RecordHead } from './heads';

export interface CheckpointStore {
	/**
	 * Takes the single-writer lock for a run (Web Lock in browsers, lock file in Node).
	 * Rejects with `RunLockedError` when another writer holds it. Call the result to release.
	 */
	lock(run: RunKey): Promise<() => Promise<void>>;
	readManifest(run: RunKey): Promise<Manifest | null>;
	/** Writes the manifest of a new run; refuses (`CheckpointError`) when one exists already. */
	createManifest(manifest: Manifest): Promise<void>;
	/**
	 * Appends one entry to the saved manifest's `operational_history` (PROTOCOL.md §6: a resume may
	 * change timeout, retries or concurrency, and the manifest keeps their history). The only
	 * change a saved manifest ever gets: every other field, unknown ones included, stays as
	 * written. Refuses (`CheckpointError`) when the run has no manifest. Call with the lock held.
	 */
	recordOperational(run: RunKey, entry: OperationalEntry): Promise<void>;
	/**
	 * Every saved record of a stage file, in stored order, each validated against the file's
	 * schema. A malformed line rejects with `CheckpointError` naming file and line.
	 */
	readRecords(run: RunKey, file: StageFile): Promise<AnyRecord[]>;
	/**
	 * The head (`RecordHead`: the record without its histories, and the record's SHA-256) of every
	 * saved record of a stage file, in stored order, each validated; errors as `readRecords`.
	 * What a resume reads. Optional: without it the engine makes heads from `readRecords`, so a
	 * store implements it only when it can do better (IndexedDB keeps heads beside the records).
	 */
	readHeads?(run: RunKey, file: StageFile): Promise<RecordHead[]>;
	/** Saves one finished record (its case complete for that stage); flushed before resolving. */
	appendRecord(run: RunKey, file: StageFile, record: AnyRecord): Promise<void>;
	/** Every run that has a manifest. */
	listRuns(): Promise<RunKey[]>;
	/**
	 * Removes a run with all its files (used by the UI's delete, never by resume). Refuses with
	 * `RunLockedError` while a writer holds the run, including this one: release first.
	 */
	deleteRun(run: RunKey): Promise<void>;
	/**
	 * Rewrites a stage file in dataset order. Records are appended in completion order because
	 * cases run concurrently; PROTOCOL.md §5 wants files in dataset order. `order` lists record
	 * identities (`recordIdentity`) in dataset order; every record stays exactly as saved, only
	 * its position changes. Refuses a record whose identity is repeated or not in `order`.
	 * Optional: a store whose readers see insertion order only may leave it out.
	 */
	finalizeStageFile?(run: RunKey, file: StageFile, order: readonly string[]): Promise<void>;
	/**
	 * Resume seals (`engine/seal.ts`), optional: notes that `stage` of the run ran to its end under
	 * `key`, with `files` as they are now. Call with the lock held, after `finalizeStageFile`.
	 */
	sealStage?(run: RunKey, stage: string, key: string, files: readonly StageFile[]): Promise<void>;
	/**
	 * True only when `stage` was sealed under `key` and none of `files` changed since (nor was
	 * created or removed): then a resume may take the stage as done without reading them. Any
	 * doubt (no seal, an unreadable one, a changed file) answers false.
	 */
	isStageSealed?(
		run: RunKey,
		stage: string,
		key: string,
		files: readonly StageFile[]
	): Promise<boolean>;
}

/** A stored run as run lists show it: its manifest and how many records each stage file holds. */
export interface StoredRun {
	run: RunKey;
	manifest: Manifest;
	/** Records per stage file (0 when the file has none yet). */
	counts: Record<StageFile, number>;
}

/** One case's records in every stage file of a run (a1 and LCA: two each), in stored order. */
export type CaseRecords = RecordsByFile;

/**
 * The browser's `CheckpointStore`, in IndexedDB through `idb`. One database per origin holds
 * every run; one writer per run is enforced with the Web Locks API, which spans tabs.
 *
 * The class owns the database handle; its parts live beside it: the rows and schema
 * (`idb-rows.ts`, `idb-schema.ts`), key ranges (`idb-ranges.ts`), locks (`idb-locks.ts`), the
 * transaction and full-disk rule (`idb-write.ts`), heads (`idb-heads.ts`) and imports
 * (`idb-write-runs.ts`).
 */
import { parseCallLog } from '../core/calls/log';
import type { CallLogEntry } from '../core/calls/schema';
import type { CallLog } from '../core/calls/types';
import { CheckpointError } from '../core/errors';
import { coded } from '../core/said';
import { callLogPath, manifestPath, stageFilePath, type RunKey } from '../core/layout';
import { runKey } from '../core/names';
import { STAGE_FILE_NAMES, type StageFile } from '../core/record-names';
import type { AnyRecord, Manifest, OperationalEntry } from '../core/records';
import { recordHead, type RecordHead } from '../core/store/heads';
import { checkManifest, withOperationalEntry } from '../core/store/manifest-file';
import { checkRecordToAppend, compareRunKeys, runLabel } from '../core/store/checks';
import { aboutRecord, orderByIdentity, recordIdentity } from '../core/store/identity';
import type { CheckpointStore } from '../core/store/types';
import type { BatchState, BatchStore, SavedBatchAnswer } from '../core/batch/store';
import type { PlanSpend, PlanSpendStore } from '../core/session/spend';
import * as batch from './idb-batch';
import { readCallTotals } from './idb-call-totals';
import { readHeadRows } from './idb-heads';
import { heldRuns, lockRun } from './idb-locks';
import { parseRecordRows } from './idb-parse';
import { callCaseKey, fileRange, runRange } from './idb-ranges';
import { recordRow, type ReviewRow } from './idb-rows';
import { openWorkbenchDb, type IdbStoreOptions } from './idb-open';
import { RUN_STORES, type Db } from './idb-schema';
import { LABEL_PREFIX, storedLabel, writeTx } from './idb-write';
import { writeRunRows, type RunRows } from './idb-write-runs';

export { DEFAULT_DB_NAME, type WorkbenchDb } from './idb-schema';
export type { RunRows } from './idb-write-runs';
export type { IdbStoreOptions } from './idb-open';

/** Opens (creating or upgrading) the workbench database and returns a store over it. */
export async function openIdbStore(options: IdbStoreOptions = {}): Promise<IdbStore> {
	const { db, dbName, locks } = await openWorkbenchDb(options);
	return new IdbStore(db, dbName, locks);
}

/** A record row of one case as stored: its position in the file and its JSON line. */
export interface CaseRow {
	seq: number;
	json: string;
}

export class IdbStore implements CheckpointStore, CallLog, BatchStore, PlanSpendStore {
	readonly #db: Db;
	readonly #locks: LockManager | null;
	/** Every lock name of this store starts with it: `<database name>:`. */
	readonly #lockPrefix: string;

	constructor(db: Db, dbName: string, locks: LockManager | null) {
		this.#db = db;
		this.#locks = locks;
		this.#lockPrefix = `${dbName}:`;
	}

	/** The Web Lock (or in-process lock) that makes one writer per run. */
	#lockName(run: RunKey): string {
		return `${this.#lockPrefix}${runKey(run)}`;
	}

	/**
	 * The runs of this database whose writer lock is held now, in any tab of this browser (in this
	 * page only, where Web Locks are missing), sorted. A tab that cannot ask says none.
	 */
	heldRuns(): Promise<RunKey[]> {
		return heldRuns(this.#locks, this.#lockPrefix);
	}

	/** Calls `listener` once this connection closes (deleted or upgraded elsewhere, or `close`). */
	onClose(listener: () => void): void {
		this.#db.addEventListener('versionchange', listener);
		this.#db.addEventListener('close', listener);
	}

	/** Closes the connection (tests; a page keeps its one connection open). */
	close(): void {
		this.#db.close();
	}

	lock(run: RunKey): Promise<() => Promise<void>> {
		return lockRun(this.#locks, this.#lockName(run), run);
	}

	async readManifest(run: RunKey): Promise<Manifest | null> {
		const row = await this.#db.get('manifests', [run.runId, run.modelDir]);
		return row ? checkManifest(row.manifest, storedLabel(manifestPath(run)), { run }) : null;
	}

	async createManifest(manifest: Manifest): Promise<void> {
		const run = { runId: manifest.run_id, modelDir: manifest.model_dir };
		const label = storedLabel(manifestPath(run));
		await checkManifest(manifest, label);
		await writeTx(this.#db, ['manifests', 'records'], label, async (tx) => {
			// A file with no record yet starts out headed: every append writes a record and its head.
			const index = tx.objectStore('records').index('by_file');
			const counts = await Promise.all(
				STAGE_FILE_NAMES.map((file) => index.count([run.runId, run.modelDir, file]))
			);
			const headed = STAGE_FILE_NAMES.filter((_, i) => counts[i] === 0);
			await tx.objectStore('manifests').add({ ...run, manifest, headed });
		}).catch((e) => {
			if ((e as Error).name === 'ConstraintError') {
				throw new CheckpointError([coded('manifest_exists', { file: label })]);
			}
			throw e;
		});
	}

	async recordOperational(run: RunKey, entry: OperationalEntry): Promise<void> {
		const label = storedLabel(manifestPath(run));
		const key: [string, string] = [run.runId, run.modelDir];
		const row = await this.#db.get('manifests', key);
		if (!row) throw new CheckpointError([coded('manifest_missing_for_resume', { file: label })]);
		// Checked before the transaction: hashing awaits WebCrypto, which would end it.
		const saved = await checkManifest(row.manifest, label, { run, asWritten: true });
		const next = await checkManifest(withOperationalEntry(saved, entry), label, {
			run,
			asWritten: true
		});
		const before = JSON.stringify(row.manifest);
		await writeTx(this.#db, 'manifests', label, async (tx) => {
			const manifests = tx.objectStore('manifests');
			const current = await manifests.get(key);
			// The lock is held, so nothing else writes it; refuse rather than lose a change if it did.
			if (!current || JSON.stringify(current.manifest) !== before) {
				throw new CheckpointError([coded('manifest_changed_in_resume', { file: label })]);
			}
			await manifests.put({ ...current, manifest: next });
		});
	}

	async readRecords(run: RunKey, file: StageFile): Promise<AnyRecord[]> {
		const rows = await this.#db.getAll('records', fileRange(run, file));
		return parseRecordRows(run, file, rows);
	}

	/**
	 * Reads the head rows, not the records (about a third of the bytes); heads missing or out of
	 * step with the records are built from the records and saved (`idb-heads.ts`).
	 */
	readHeads(run: RunKey, file: StageFile): Promise<RecordHead[]> {
		return readHeadRows(this.#db, run, file);
	}

	async appendRecord(run: RunKey, file: StageFile, record: AnyRecord): Promise<void> {
		const label = storedLabel(stageFilePath(run, file));
		checkRecordToAppend(file, record, label);
		const identity = recordIdentity(file, record);
		const json = JSON.stringify(record);
		// Hashed before the transaction, which would commit while WebCrypto works.
		const head = await recordHead(file, record);
		await writeTx(this.#db, ['records', 'heads'], label, async (tx) => {
			const store = tx.objectStore('records');
			// Within one readwrite transaction no other append can take the same seq.
			const last = await store.openKeyCursor(fileRange(run, file), 'prev');
			const seq = last ? (last.primaryKey[3] as number) + 1 : 0;
			await tx.objectStore('heads').put({ ...run, file, seq, head });
			await store.add(recordRow(run, file, seq, record, json));
		}).catch((e) => {
			if ((e as Error).name === 'ConstraintError') {
				throw aboutRecord('record_saved_already', label, identity);
			}
			throw e;
		});
	}

	async appendCall(run: RunKey, line: string): Promise<void> {
		const json = line.endsWith('\n') ? line.slice(0, -1) : line;
		const case_key = callCaseKey(json);
		await writeTx(this.#db, 'calls', storedLabel(callLogPath(run)), async (tx) => {
			const store = tx.objectStore('calls');
			const last = await store.openKeyCursor(runRange(run), 'prev');
			const seq = last ? (last.primaryKey[2] as number) + 1 : 0;
			await store.add({ runId: run.runId, modelDir: run.modelDir, seq, case_key, json });
		});
	}

	async readCalls(run: RunKey): Promise<CallLogEntry[]> {
		const rows = await this.#db.getAll('calls', runRange(run));
		return parseCallLog(rows.map((row) => `${row.json}\n`).join(''), storedLabel(callLogPath(run)));
	}

	/**
	 * The totals of the run's call log (`idb-call-totals.ts`): kept with the run, computed from the
	 * log (and kept) when lines came since; a line that cannot be read throws naming `fileLabel`.
	 */
	callTotals = (run: RunKey, fileLabel: string) => readCallTotals(this.#db, run, fileLabel);

	// BatchStore (`idb-batch.ts`): a batch-mode run's rounds and answers.
	readBatchState = (run: RunKey) => batch.readBatchState(this.#db, run);
	writeBatchState = (run: RunKey, state: BatchState) => batch.writeBatchState(this.#db, run, state);
	appendBatchAnswers = (run: RunKey, answers: readonly SavedBatchAnswer[]) =>
		batch.appendBatchAnswers(this.#db, run, answers);
	readBatchAnswers = (run: RunKey) => batch.readBatchAnswers(this.#db, run);

	// PlanSpendStore (`idb-batch.ts`): a run plan's spending cap and spend so far.
	readPlanSpend = (planId: string) => batch.readPlanSpend(this.#db, planId);
	writePlanSpend = (planId: string, spend: PlanSpend) =>
		batch.writePlanSpend(this.#db, planId, spend);

	async listRuns(): Promise<RunKey[]> {
		const keys = await this.#db.getAllKeys('manifests');
		return keys.map(([runId, modelDir]) => ({ runId, modelDir })).sort(compareRunKeys);
	}

	async deleteRun(run: RunKey): Promise<void> {
		const release = await this.lock(run);
		try {
			await writeTx(this.#db, [...RUN_STORES], runLabel(run), async (tx) => {
				for (const name of RUN_STORES) await tx.objectStore(name).delete(runRange(run));
			});
		} finally {
			await release();
		}
	}

	async finalizeStageFile(run: RunKey, file: StageFile, order: readonly string[]): Promise<void> {
		const label = storedLabel(stageFilePath(run, file));
		await writeTx(this.#db, ['records', 'heads'], label, async (tx) => {
			const store = tx.objectStore('records');
			const rows = await store.getAll(fileRange(run, file));
			const sorted = orderByIdentity(rows, (row) => recordIdentity(file, row), order, label);
			if (sorted.every((row, i) => row === rows[i])) return;
			// Each head moves with its row; a row without one is caught by readHeads' count check.
			const heads = tx.objectStore('heads');
			const headOf = new Map(
				(await heads.getAll(fileRange(run, file))).map((h) => [h.seq, h.head])
			);
			await heads.delete(fileRange(run, file));
			// Delete first: the unique identity index would refuse a second copy of any row.
			for (const row of rows) await store.delete([row.runId, row.modelDir, row.file, row.seq]);
			for (const [seq, row] of sorted.entries()) {
				await store.add({ ...row, seq });
				const head = headOf.get(row.seq);
				if (head) await heads.add({ ...run, file, seq, head });
			}
		});
	}

	/**
	 * Every saved manifest as it was written (not checked: the readers that show it check it with
	 * their own message), sorted by run.
	 */
	async savedManifests(): Promise<{ run: RunKey; manifest: Manifest }[]> {
		const rows = await this.#db.getAll('manifests');
		return rows
			.map((row) => ({ run: { runId: row.runId, modelDir: row.modelDir }, manifest: row.manifest }))
			.sort((a, b) => compareRunKeys(a.run, b.run));
	}

	/** One run's manifest as it was written (not checked); null when the run is not stored. */
	async savedManifest(run: RunKey): Promise<Manifest | null> {
		return (await this.#db.get('manifests', [run.runId, run.modelDir]))?.manifest ?? null;
	}

	/** Whether the run has a manifest here. */
	async hasRun(run: RunKey): Promise<boolean> {
		return (await this.#db.getKey('manifests', [run.runId, run.modelDir])) !== undefined;
	}

	/** How many records a stage file holds. */
	async countRecords(run: RunKey, file: StageFile): Promise<number> {
		return this.#db.count('records', fileRange(run, file));
	}

	/** How many lines the run's call log holds. */
	async countCalls(run: RunKey): Promise<number> {
		return this.#db.count('calls', runRange(run));
	}

	/**
	 * Whether a stage file holds a record, and with `file` null whether the run has a call log:
	 * its first key only, where a count would cost Chromium a scan of every row.
	 */
	async holds(run: RunKey, file: StageFile | null): Promise<boolean> {
		const key =
			file === null
				? await this.#db.getKey('calls', runRange(run))
				: await this.#db.getKey('records', fileRange(run, file));
		return key !== undefined;
	}

	/** A stage file's lines as saved (each record's JSON), in file order. */
	async recordLines(run: RunKey, file: StageFile): Promise<string[]> {
		return (await this.#db.getAll('records', fileRange(run, file))).map((row) => row.json);
	}

	/** The run's call-log lines as saved, in written order. */
	async callLines(run: RunKey): Promise<string[]> {
		return (await this.#db.getAll('calls', runRange(run))).map((row) => row.json);
	}

	/** The run's review rows (every reviewer), by reviewer and decision. */
	async reviewRows(run: RunKey): Promise<ReviewRow[]> {
		return this.#db.getAll('reviews', runRange(run));
	}

	/** Saves one review, replacing the reviewer's earlier review of the decision. */
	async putReview(row: ReviewRow): Promise<void> {
		await writeTx(this.#db, 'reviews', `${LABEL_PREFIX}reviews of ${row.runId}`, async (tx) => {
			await tx.objectStore('reviews').put(row);
		});
	}

	/** One case's record rows in a stage file (both histories where there are two), unordered. */
	async caseRows(run: RunKey, file: StageFile, caseNumber: string): Promise<CaseRow[]> {
		// history_type is '' outside the paired files and a word inside, so one range covers both.
		const range = IDBKeyRange.bound(
			[run.runId, run.modelDir, file, caseNumber, ''],
			[run.runId, run.modelDir, file, caseNumber, '\uffff']
		);
		const rows = await this.#db.getAllFromIndex('records', 'by_identity', range);
		return rows.map((row) => ({ seq: row.seq, json: row.json }));
	}

	/** One case's call-log lines (the `by_case` index), in written order. */
	async caseCallLines(run: RunKey, caseNumber: string): Promise<string[]> {
		const rows = await this.#db.getAllFromIndex('calls', 'by_case', [
			run.runId,
			run.modelDir,
			caseNumber
		]);
		return rows.sort((a, b) => a.seq - b.seq).map((row) => row.json);
	}

	/**
	 * Writes whole runs in ONE transaction: every manifest, record and call-log line, or nothing.
	 * With `replace`, a stored run of the same key is deleted in that transaction first; without
	 * it, a run stored meanwhile makes the write fail (a `CheckpointError` saying so). The caller
	 * holds the runs' locks.
	 */
	writeRuns(runs: readonly RunRows[], replace: boolean): Promise<void> {
		return writeRunRows(this.#db, runs, replace);
	}
}

let shared: Promise<IdbStore> | null = null;

/**
 * The page's connection to the workbench database, opened once. When the database is deleted or
 * upgraded elsewhere the connection closes itself, and the next call opens a fresh one.
 */
export function sharedIdbStore(): Promise<IdbStore> {
	if (!shared) {
		const opening = openIdbStore().then((store) => {
			store.onClose(() => {
				if (shared === opening) shared = null;
			});
			return store;
		});
		opening.catch(() => {
			if (shared === opening) shared = null;
		});
		shared = opening;
	}
	return shared;
}

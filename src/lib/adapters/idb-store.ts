/**
 * The browser's `CheckpointStore`, in IndexedDB through `idb`. One database per origin holds
 * every run; one writer per run is enforced with the Web Locks API, which spans tabs.
 *
 * One file for now: one class owns the database handle and its transactions, and it is being
 * changed in parallel; it splits by concern (as `fs-store` did) once that work has landed.
 */
import { wrap, type DBSchema, type IDBPDatabase, type IDBPTransaction, type StoreNames } from 'idb';
import { parseCallLog } from '../core/calls/log';
import type { CallLogEntry } from '../core/calls/schema';
import type { CallLog } from '../core/calls/types';
import { CheckpointError, RunLockedError } from '../core/errors';
import { coded, type CoreText } from '../core/said';
import { callLogPath, manifestPath, stageFilePath, type RunKey } from '../core/layout';
import { parseRunKey, runKey } from '../core/names';
import { caseKey, STAGE_FILE_NAMES, type StageFile } from '../core/record-names';
import type { AnyRecord, Manifest, OperationalEntry } from '../core/records';
import { checkHead, recordHead, type RecordHead } from '../core/store/heads';
import { checkManifest, withOperationalEntry } from '../core/store/manifest-file';
import { checkRecord, checkRecordToAppend, compareRunKeys, runLabel } from '../core/store/checks';
import {
	describeIdentity,
	orderByIdentity,
	PAIRED_FILES,
	recordIdentity
} from '../core/store/identity';
import type { CheckpointStore } from '../core/store/types';

/** @default 'lexpilot-workbench' */
export const DEFAULT_DB_NAME = 'lexpilot-workbench';

/** Raise with each schema change and add a step to `upgrade`; never edit a released step. */
export const DB_VERSION = 4;

/** A run's manifest. Key: [runId, modelDir]. */
export interface ManifestRow {
	runId: string;
	modelDir: string;
	manifest: Manifest;
	/**
	 * Stage files whose every record row has its head row. This store writes the two together;
	 * rows written any other way (a bundle import, a database of version 1) come without this list,
	 * and the file's heads are built again from its records on the next `readHeads`.
	 */
	headed?: StageFile[];
}

/**
 * One saved record. Key: [runId, modelDir, file, seq], so a file reads back in the order it was
 * written. The record is kept as its JSON line, so export writes exactly what was saved.
 */
export interface RecordRow {
	runId: string;
	modelDir: string;
	file: StageFile;
	/** Position in the file, from 0. */
	seq: number;
	case_number: string;
	/** The record's history_type in the a1 and LCA files (two records per case); '' elsewhere. */
	history_type: string;
	/** `JSON.stringify(record)`. */
	json: string;
}

/**
 * The head of one record row (`RecordHead`: the record without its histories, and the SHA-256
 * of the whole record), which is all a resume reads. Key: [runId, modelDir, file, seq], the key
 * of its record row.
 */
export interface HeadRow {
	runId: string;
	modelDir: string;
	file: StageFile;
	seq: number;
	head: RecordHead;
}

/**
 * One line of a run's call log (`calls.jsonl`). Key: [runId, modelDir, seq], so the log reads
 * back in written order. Kept as its JSON line, like records, so export gives back its bytes.
 */
export interface CallRow {
	runId: string;
	modelDir: string;
	seq: number;
	/** The line's case_number as a string, for the `by_case` index (Inspect reads one case). */
	case_key: string;
	json: string;
}

/**
 * One review line (`reviews/<run-id>/<model>/<reviewer>.jsonl`, `core/agreement`). Key:
 * [runId, modelDir, reviewer, decision]: one review per decision and reviewer, a new one
 * replaces it. Kept as its JSON line, so export gives back its bytes.
 */
export interface ReviewRow {
	runId: string;
	modelDir: string;
	/** The reviewer's name as typed. */
	reviewer: string;
	/** `decisionKey` of the decision. */
	decision: string;
	json: string;
}

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

type Db = IDBPDatabase<WorkbenchDb>;

function upgrade(db: Db, oldVersion: number): void {
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
}

/** A run's review rows, by reviewer then decision. */
function reviewRange(run: RunKey): IDBKeyRange {
	return IDBKeyRange.bound([run.runId, run.modelDir, ''], [run.runId, run.modelDir, '\uffff', []]);
}

/** The case_number of a call-log line as a string ('' when it has none), for `by_case`. */
function callCaseKey(json: string): string {
	try {
		const value = (JSON.parse(json) as { case_number?: unknown }).case_number;
		return typeof value === 'string' || typeof value === 'number' ? String(value) : '';
	} catch {
		return '';
	}
}

/** A run's call-log rows in seq order. */
function callRange(run: RunKey): IDBKeyRange {
	return IDBKeyRange.bound(
		[run.runId, run.modelDir, -Infinity],
		[run.runId, run.modelDir, Infinity]
	);
}

/**
 * One stage file's rows in seq order, in `records` or in `heads`: both are keyed by
 * [runId, modelDir, file, seq].
 */
function fileRange(run: RunKey, file: StageFile): IDBKeyRange {
	return IDBKeyRange.bound(
		[run.runId, run.modelDir, file, -Infinity],
		[run.runId, run.modelDir, file, Infinity]
	);
}

export interface IdbStoreOptions {
	/** @default 'lexpilot-workbench' */
	dbName?: string;
	/** @default globalThis.indexedDB (tests pass fake-indexeddb's) */
	idbFactory?: IDBFactory;
	/**
	 * Where run locks come from. When missing (Node, old browsers) an in-process lock stands in,
	 * which guards one page but not a second tab.
	 * @default globalThis.navigator?.locks
	 */
	locks?: LockManager | null;
}

/** Opens (creating or upgrading) the workbench database and returns a store over it. */
export async function openIdbStore(options: IdbStoreOptions = {}): Promise<IdbStore> {
	const dbName = options.dbName ?? DEFAULT_DB_NAME;
	const factory = options.idbFactory ?? globalThis.indexedDB;
	if (!factory) {
		throw new CheckpointError(
			'This browser offers no IndexedDB (private mode may disable it), so runs cannot be saved. ' +
				'Use a normal window or the command-line tool.'
		);
	}
	const request = factory.open(dbName, DB_VERSION);
	request.addEventListener('upgradeneeded', (event) => {
		upgrade(wrap(request.result) as unknown as Db, event.oldVersion);
	});
	const db = (await wrap(request)) as unknown as Db;
	// A newer tab wants to upgrade the schema: step aside rather than block it.
	db.addEventListener('versionchange', () => db.close());
	const locks = options.locks === undefined ? (globalThis.navigator?.locks ?? null) : options.locks;
	return new IdbStore(db, dbName, locks);
}

/** Locks held in this JavaScript realm, when the Web Locks API is missing. */
const localLocks = new Set<string>();

/** What a stored file's label starts with in messages. */
const LABEL_PREFIX = 'browser storage: ';

function isQuotaError(e: unknown): boolean {
	return (e as { name?: string } | null)?.name === 'QuotaExceededError';
}

/**
 * A whole run written at once (an import): its manifest, its record rows (each with its JSON
 * line, in file order) and the lines of its call log.
 */
export interface RunRows {
	run: RunKey;
	manifest: Manifest;
	records: RecordRow[];
	calls: readonly string[];
	/** Review rows to put beside the run (merged, never deleted, by `replace`). */
	reviews?: readonly ReviewRow[];
}

/** A record row of one case as stored: its position in the file and its JSON line. */
export interface CaseRow {
	seq: number;
	json: string;
}

export class IdbStore implements CheckpointStore, CallLog {
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
	async heldRuns(): Promise<RunKey[]> {
		let names: string[];
		if (this.#locks === null) names = [...localLocks];
		else {
			try {
				names = ((await this.#locks.query()).held ?? []).map((lock) => lock.name ?? '');
			} catch {
				names = [];
			}
		}
		const runs: RunKey[] = [];
		for (const name of names) {
			if (!name.startsWith(this.#lockPrefix)) continue;
			const run = parseRunKey(name.slice(this.#lockPrefix.length));
			if (run) runs.push(run);
		}
		return runs.sort(compareRunKeys);
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

	async lock(run: RunKey): Promise<() => Promise<void>> {
		const name = this.#lockName(run);
		const refused = () =>
			new RunLockedError(
				`${runLabel(run)} is being written in another tab or window of the workbench. Close that ` +
					'tab or wait for its run to finish. Only one writer per run id and model is allowed.'
			);
		if (this.#locks === null) {
			if (localLocks.has(name)) throw refused();
			localLocks.add(name);
			let held = true;
			return async () => {
				if (held) localLocks.delete(name);
				held = false;
			};
		}
		const locks = this.#locks;
		let release!: () => void;
		const held = new Promise<void>((resolve) => (release = resolve));
		const granted = await new Promise<boolean>((resolve, reject) => {
			// The lock lasts as long as the callback's promise: until `release` is called.
			const done = locks.request(name, { ifAvailable: true }, async (lock) => {
				resolve(lock !== null);
				if (lock !== null) await held;
			});
			done.catch(reject);
		});
		if (!granted) throw refused();
		return async () => release();
	}

	async readManifest(run: RunKey): Promise<Manifest | null> {
		const row = await this.#db.get('manifests', [run.runId, run.modelDir]);
		return row ? checkManifest(row.manifest, this.#label(manifestPath(run)), { run }) : null;
	}

	async createManifest(manifest: Manifest): Promise<void> {
		const run = { runId: manifest.run_id, modelDir: manifest.model_dir };
		const label = this.#label(manifestPath(run));
		await checkManifest(manifest, label);
		await this.#write(['manifests', 'records'], label, async (tx) => {
			// A file with no record yet starts out headed: every append writes a record and its head.
			const index = tx.objectStore('records').index('by_file');
			const counts = await Promise.all(
				STAGE_FILE_NAMES.map((file) => index.count([run.runId, run.modelDir, file]))
			);
			const headed = STAGE_FILE_NAMES.filter((_, i) => counts[i] === 0);
			await tx.objectStore('manifests').add({ ...run, manifest, headed });
		}).catch((e) => {
			if ((e as Error).name === 'ConstraintError') {
				throw new CheckpointError(`${label} exists already; a saved manifest is never replaced.`);
			}
			throw e;
		});
	}

	async recordOperational(run: RunKey, entry: OperationalEntry): Promise<void> {
		const label = this.#label(manifestPath(run));
		const key: [string, string] = [run.runId, run.modelDir];
		const row = await this.#db.get('manifests', key);
		if (!row) throw new CheckpointError(`${label}: no manifest to record the resume in.`);
		// Checked before the transaction: hashing awaits WebCrypto, which would end it.
		const saved = await checkManifest(row.manifest, label, { run, asWritten: true });
		const next = await checkManifest(withOperationalEntry(saved, entry), label, {
			run,
			asWritten: true
		});
		const before = JSON.stringify(row.manifest);
		await this.#write('manifests', label, async (tx) => {
			const manifests = tx.objectStore('manifests');
			const current = await manifests.get(key);
			// The lock is held, so nothing else writes it; refuse rather than lose a change if it did.
			if (!current || JSON.stringify(current.manifest) !== before) {
				throw new CheckpointError(
					`${label}: changed while the resume was being recorded; run again.`
				);
			}
			await manifests.put({ ...current, manifest: next });
		});
	}

	async readRecords(run: RunKey, file: StageFile): Promise<AnyRecord[]> {
		const rows = await this.#db.getAllFromIndex('records', 'by_file', [
			run.runId,
			run.modelDir,
			file
		]);
		return this.#parse(run, file, rows);
	}

	/**
	 * Reads the head rows, not the records: about a third of the bytes, as a1, interaction and
	 * four more files repeat whole histories. Heads missing or out of step with the records (the
	 * run was imported, or saved before heads existed) are built from the records and saved.
	 */
	async readHeads(run: RunKey, file: StageFile): Promise<RecordHead[]> {
		const label = this.#label(stageFilePath(run, file));
		const tx = this.#db.transaction(['manifests', 'heads', 'records'], 'readonly');
		const [manifestRow, rows, last] = await Promise.all([
			tx.objectStore('manifests').get([run.runId, run.modelDir]),
			tx.objectStore('heads').getAll(fileRange(run, file)),
			// The last record's key only: counting the rows would cost Chromium a third of the scan.
			tx.objectStore('records').openKeyCursor(fileRange(run, file), 'prev')
		]);
		// Seqs run 0…n−1 in every file this store or an import writes; rows appended behind the
		// store's back leave the heads short.
		const inStep = rows.length === (last ? (last.primaryKey[3] as number) + 1 : 0);
		if (!manifestRow?.headed?.includes(file) || !inStep) return this.#rebuildHeads(run, file);
		return rows.map((row, i) => checkHead(file, row.head, `${label}, line ${i + 1}`));
	}

	/** Heads made from the records, saved for the next resume when the file did not change meanwhile. */
	async #rebuildHeads(run: RunKey, file: StageFile): Promise<RecordHead[]> {
		const label = this.#label(stageFilePath(run, file));
		const key: [string, string, string] = [run.runId, run.modelDir, file];
		const rows = await this.#db.getAllFromIndex('records', 'by_file', key);
		const records = this.#parse(run, file, rows);
		const heads = await Promise.all(records.map((record) => recordHead(file, record)));
		await this.#write(['manifests', 'heads', 'records'], label, async (tx) => {
			const manifests = tx.objectStore('manifests');
			const manifestRow = await manifests.get([run.runId, run.modelDir]);
			const now = await tx.objectStore('records').index('by_file').getAllKeys(key);
			const unchanged = now.length === rows.length && now.every((k, i) => k[3] === rows[i].seq);
			// Without a manifest there is nothing to mark the heads as complete in.
			if (!manifestRow || !unchanged) return;
			const store = tx.objectStore('heads');
			await store.delete(fileRange(run, file));
			await Promise.all(
				heads.map((head, i) => store.add({ ...run, file, seq: rows[i].seq, head }))
			);
			const headed = [...new Set([...(manifestRow.headed ?? []), file])];
			await manifests.put({ ...manifestRow, headed });
		});
		return heads;
	}

	async appendRecord(run: RunKey, file: StageFile, record: AnyRecord): Promise<void> {
		const label = this.#label(stageFilePath(run, file));
		checkRecordToAppend(file, record, label);
		const identity = recordIdentity(file, record);
		const json = JSON.stringify(record);
		// Hashed before the transaction, which would commit while WebCrypto works.
		const head = await recordHead(file, record);
		await this.#write(['records', 'heads'], label, async (tx) => {
			const store = tx.objectStore('records');
			// Within one readwrite transaction no other append can take the same seq.
			const last = await store
				.index('by_file')
				.openKeyCursor([run.runId, run.modelDir, file], 'prev');
			const seq = last ? (last.primaryKey[3] as number) + 1 : 0;
			await tx.objectStore('heads').put({ ...run, file, seq, head });
			await store.add({
				runId: run.runId,
				modelDir: run.modelDir,
				file,
				seq,
				// The index compares strings (PROTOCOL.md §5); `json` keeps the record's own type.
				case_number: caseKey(record.case_number),
				history_type: PAIRED_FILES.has(file) ? String(record.history_type) : '',
				json
			});
		}).catch((e) => {
			if ((e as Error).name === 'ConstraintError') {
				throw new CheckpointError(
					`${label}: ${describeIdentity(identity)} is saved already; a saved record is never overwritten.`
				);
			}
			throw e;
		});
	}

	async appendCall(run: RunKey, line: string): Promise<void> {
		const json = line.endsWith('\n') ? line.slice(0, -1) : line;
		const case_key = callCaseKey(json);
		await this.#write('calls', this.#label(callLogPath(run)), async (tx) => {
			const store = tx.objectStore('calls');
			const last = await store.openKeyCursor(callRange(run), 'prev');
			const seq = last ? (last.primaryKey[2] as number) + 1 : 0;
			await store.add({ runId: run.runId, modelDir: run.modelDir, seq, case_key, json });
		});
	}

	async readCalls(run: RunKey): Promise<CallLogEntry[]> {
		const rows = await this.#db.getAll('calls', callRange(run));
		return parseCallLog(rows.map((row) => `${row.json}\n`).join(''), this.#label(callLogPath(run)));
	}

	async listRuns(): Promise<RunKey[]> {
		const keys = await this.#db.getAllKeys('manifests');
		return keys.map(([runId, modelDir]) => ({ runId, modelDir })).sort(compareRunKeys);
	}

	async deleteRun(run: RunKey): Promise<void> {
		const release = await this.lock(run);
		try {
			const stores = ['manifests', 'records', 'heads', 'calls', 'reviews'] as const;
			await this.#write([...stores], runLabel(run), async (tx) => {
				await tx.objectStore('manifests').delete([run.runId, run.modelDir]);
				await tx.objectStore('reviews').delete(reviewRange(run));
				await tx.objectStore('calls').delete(callRange(run));
				const index = tx.objectStore('records').index('by_file');
				for (const file of STAGE_FILE_NAMES) {
					await tx.objectStore('heads').delete(fileRange(run, file));
					let cursor = await index.openCursor([run.runId, run.modelDir, file]);
					while (cursor) {
						await cursor.delete();
						cursor = await cursor.continue();
					}
				}
			});
		} finally {
			await release();
		}
	}

	async finalizeStageFile(run: RunKey, file: StageFile, order: readonly string[]): Promise<void> {
		const label = this.#label(stageFilePath(run, file));
		await this.#write(['records', 'heads'], label, async (tx) => {
			const store = tx.objectStore('records');
			const rows = await store.index('by_file').getAll([run.runId, run.modelDir, file]);
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
		return this.#db.countFromIndex('records', 'by_file', [run.runId, run.modelDir, file]);
	}

	/** How many lines the run's call log holds. */
	async countCalls(run: RunKey): Promise<number> {
		return this.#db.count('calls', callRange(run));
	}

	/** A stage file's lines as saved (each record's JSON), in file order. */
	async recordLines(run: RunKey, file: StageFile): Promise<string[]> {
		const rows = await this.#db.getAllFromIndex('records', 'by_file', [
			run.runId,
			run.modelDir,
			file
		]);
		return rows.map((row) => row.json);
	}

	/** The run's call-log lines as saved, in written order. */
	async callLines(run: RunKey): Promise<string[]> {
		return (await this.#db.getAll('calls', callRange(run))).map((row) => row.json);
	}

	/** The run's review rows (every reviewer), by reviewer and decision. */
	async reviewRows(run: RunKey): Promise<ReviewRow[]> {
		return this.#db.getAll('reviews', reviewRange(run));
	}

	/** Saves one review, replacing the reviewer's earlier review of the decision. */
	async putReview(row: ReviewRow): Promise<void> {
		await this.#write('reviews', `${LABEL_PREFIX}reviews of ${row.runId}`, async (tx) => {
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
	async writeRuns(runs: readonly RunRows[], replace: boolean): Promise<void> {
		const full = coded('storage_full_import', {});
		await this.#write(
			['manifests', 'records', 'calls', 'reviews'],
			'browser storage',
			async (tx) => {
				const manifests = tx.objectStore('manifests');
				const records = tx.objectStore('records');
				const calls = tx.objectStore('calls');
				for (const entry of runs) {
					const { runId, modelDir } = entry.run;
					// Call-log rows live only with their run; none can be left without one, but be sure.
					await calls.delete(callRange(entry.run));
					if (replace) {
						await manifests.delete([runId, modelDir]);
						const index = records.index('by_file');
						for (const file of STAGE_FILE_NAMES) {
							let cursor = await index.openCursor([runId, modelDir, file]);
							while (cursor) {
								await cursor.delete();
								cursor = await cursor.continue();
							}
						}
					}
					await manifests.add({ runId, modelDir, manifest: entry.manifest });
					for (const row of entry.records) await records.add(row);
					for (const [seq, json] of entry.calls.entries()) {
						await calls.add({ runId, modelDir, seq, case_key: callCaseKey(json), json });
					}
					for (const row of entry.reviews ?? []) await tx.objectStore('reviews').put(row);
				}
			},
			full
		).catch((e) => {
			if ((e as Error | null)?.name === 'ConstraintError') {
				throw new CheckpointError(
					'A run of the bundle was saved in this browser while it was being imported. Nothing was ' +
						'imported; try again.'
				);
			}
			throw e;
		});
	}

	/** Parses and checks record rows, naming the line of the first bad one. */
	#parse(run: RunKey, file: StageFile, rows: readonly RecordRow[]): AnyRecord[] {
		const label = this.#label(stageFilePath(run, file));
		return rows.map((row, i) => {
			const where = `${label}, line ${i + 1}`;
			let value: unknown;
			try {
				value = JSON.parse(row.json);
			} catch (e) {
				throw new CheckpointError(`${where}: not valid JSON (${(e as Error).message})`);
			}
			return checkRecord(file, value, where);
		});
	}

	/** Names a stored file for messages; IndexedDB keeps the same files as the CLI's folders. */
	#label(layoutPath: string): string {
		return `${LABEL_PREFIX}${layoutPath}`;
	}

	/**
	 * Runs `body` in one readwrite transaction that commits whole or not at all (no await in it
	 * on anything but the transaction's own requests, or it commits early). A full disk aborts it
	 * and becomes a `CheckpointError` saying so (`full`, or that the record was not saved);
	 * everything saved before stays.
	 */
	async #write<N extends StoreNames<WorkbenchDb>>(
		stores: N | N[],
		label: string,
		body: (tx: IDBPTransaction<WorkbenchDb, N[], 'readwrite'>) => Promise<void>,
		full?: CoreText
	): Promise<void> {
		const tx = this.#db.transaction(Array.isArray(stores) ? stores : [stores], 'readwrite');
		try {
			await body(tx);
			await tx.done;
		} catch (e) {
			try {
				tx.abort();
			} catch {
				// already aborted or finished
			}
			await tx.done.catch(() => undefined);
			if (isQuotaError(e) || isQuotaError(tx.error)) {
				if (full) throw new CheckpointError([full]);
				throw new CheckpointError(
					`${label}: browser storage is full, so this record was not saved. Nothing was lost: ` +
						'every earlier record is kept. Free space (export and delete old runs), then resume.',
					[
						coded('storage_full_record', {
							file: label.slice(label.startsWith(LABEL_PREFIX) ? LABEL_PREFIX.length : 0)
						})
					]
				);
			}
			throw e;
		}
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

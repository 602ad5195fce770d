/**
 * The runs kept in IndexedDB seen as files of the canonical layout (SPEC §5), so the browser
 * scores them with the very `computeReport` the CLI runs over its output folder, exports them
 * byte for byte, and imports bundles into them all at once.
 */
import { CheckpointError } from '../core/errors';
import {
	callLogPath,
	manifestPath,
	parseLayoutPath,
	stageFilePath,
	type RunKey
} from '../core/layout';
import {
	caseKey,
	STAGE_FILE_NAMES,
	type AnyRecord,
	type Manifest,
	type RecordsByFile,
	type StageFile
} from '../core/records';
import type { LayoutSource } from '../core/results/source';
import { checkRecord, compareRunKeys, runLabel } from '../core/store/checks';
import { PAIRED_FILES } from '../core/store/identity';
import { manifestText } from '../core/store/manifest-file';
import { parseCallLog } from '../core/calls/log';
import type { CallLogEntry } from '../core/calls/schema';
import { callCaseKey, callRange, openIdbStore, type IdbStore, type RecordRow } from './idb-store';
import type { BundleRun } from './zip-bundle';

const sameRun = (a: RunKey, b: RunKey) => a.runId === b.runId && a.modelDir === b.modelDir;

/** A run in the browser's storage, with how many records each stage file holds. */
export interface StoredRun {
	run: RunKey;
	manifest: Manifest;
	/** Records per stage file (0 when the file has none yet). */
	counts: Record<StageFile, number>;
}

/** Every run with a manifest, sorted by run id then model folder, with its record counts. */
export async function listStoredRuns(store: IdbStore): Promise<StoredRun[]> {
	const rows = await store.db.getAll('manifests');
	const runs = await Promise.all(
		rows.map(async (row) => {
			const run = { runId: row.runId, modelDir: row.modelDir };
			const counts = Object.fromEntries(
				await Promise.all(
					STAGE_FILE_NAMES.map(
						async (file) =>
							[
								file,
								await store.db.countFromIndex('records', 'by_file', [run.runId, run.modelDir, file])
							] as const
					)
				)
			) as Record<StageFile, number>;
			return { run, manifest: row.manifest, counts };
		})
	);
	return runs.sort((a, b) => compareRunKeys(a.run, b.run));
}

/** The text of one stage file: its saved lines in stored order, each ending in `\n`. */
async function stageText(store: IdbStore, run: RunKey, file: StageFile): Promise<string> {
	const rows = await store.db.getAllFromIndex('records', 'by_file', [
		run.runId,
		run.modelDir,
		file
	]);
	return rows.map((row) => `${row.json}\n`).join('');
}

/** The text of a run's call log, each line ending in `\n`; '' when it has none. */
async function callsText(store: IdbStore, run: RunKey): Promise<string> {
	const rows = await store.db.getAll('calls', callRange(run));
	return rows.map((row) => `${row.json}\n`).join('');
}

export interface IdbSourceOptions {
	/** Only these runs; every stored run when left out. */
	runs?: readonly RunKey[];
}

/**
 * A `LayoutSource` over the runs in IndexedDB: a manifest per run and each stage file that holds
 * at least one record. Reads happen when asked, so a report over a run that is still being
 * written sees the records saved so far.
 */
export function idbLayoutSource(store: IdbStore, options: IdbSourceOptions = {}): LayoutSource {
	const wanted = (run: RunKey) => !options.runs || options.runs.some((r) => sameRun(r, run));
	return {
		root: 'browser storage',
		async list() {
			const paths: string[] = [];
			for (const stored of await listStoredRuns(store)) {
				if (!wanted(stored.run)) continue;
				paths.push(manifestPath(stored.run));
				for (const file of STAGE_FILE_NAMES) {
					if (stored.counts[file] > 0) paths.push(stageFilePath(stored.run, file));
				}
				const calls = await store.db.count('calls', callRange(stored.run));
				if (calls > 0) paths.push(callLogPath(stored.run));
			}
			return paths;
		},
		async read(path) {
			const named = parseLayoutPath(path);
			if (!named || !wanted(named.run)) throw new Error(`browser storage: ${path}: no such file`);
			if (named.kind === 'stage') return stageText(store, named.run, named.file);
			if (named.kind === 'calls') return callsText(store, named.run);
			const row = await store.db.get('manifests', [named.run.runId, named.run.modelDir]);
			if (!row) throw new Error(`browser storage: ${path}: no such file`);
			return manifestText(row.manifest);
		}
	};
}

/** Every file of one run, path → text, in layout order (manifest first): what export zips. */
export async function readRunFiles(store: IdbStore, run: RunKey): Promise<Map<string, string>> {
	const files = new Map<string, string>();
	const row = await store.db.get('manifests', [run.runId, run.modelDir]);
	if (!row) throw new CheckpointError(`${runLabel(run)} is not in this browser's storage.`);
	files.set(manifestPath(run), manifestText(row.manifest));
	for (const file of STAGE_FILE_NAMES) {
		const text = await stageText(store, run, file);
		if (text) files.set(stageFilePath(run, file), text);
	}
	const calls = await callsText(store, run);
	if (calls) files.set(callLogPath(run), calls);
	return files;
}

/** What the inspector shows of one case: its record in each stage file (a1 and LCA: two). */
export type CaseRecords = RecordsByFile;

/** The records of one case in every stage file of a run, validated, in stored order. */
export async function readCaseRecords(
	store: IdbStore,
	run: RunKey,
	caseNumber: string
): Promise<CaseRecords> {
	const out = {} as Record<StageFile, AnyRecord[]>;
	for (const file of STAGE_FILE_NAMES) {
		// history_type is '' outside the paired files and a word inside, so one range covers both.
		const range = IDBKeyRange.bound(
			[run.runId, run.modelDir, file, caseNumber, ''],
			[run.runId, run.modelDir, file, caseNumber, '\uffff']
		);
		const rows = await store.db.getAllFromIndex('records', 'by_identity', range);
		const label = `browser storage: ${stageFilePath(run, file)}`;
		out[file] = rows
			.sort((a, b) => a.seq - b.seq)
			.map((row) => {
				let value: unknown;
				try {
					value = JSON.parse(row.json);
				} catch (e) {
					throw new CheckpointError(
						`${label}, line ${row.seq + 1}: not valid JSON (${(e as Error).message})`
					);
				}
				return checkRecord(file, value, `${label}, line ${row.seq + 1}`);
			});
	}
	return out as unknown as CaseRecords;
}

/** Every record of a run by stage file, validated, in stored order: what Inspect's case table reads. */
export async function readRunRecords(store: IdbStore, run: RunKey): Promise<RecordsByFile> {
	const files = await Promise.all(STAGE_FILE_NAMES.map((file) => store.readRecords(run, file)));
	return Object.fromEntries(
		STAGE_FILE_NAMES.map((file, i) => [file, files[i]])
	) as unknown as RecordsByFile;
}

/**
 * The call-log lines of one case of a run (its `by_case` index), validated, in written order:
 * what Inspect shows under each response. [] when the run has no call log.
 */
export async function readCaseCalls(
	store: IdbStore,
	run: RunKey,
	caseNumber: string
): Promise<CallLogEntry[]> {
	const rows = await store.db.getAllFromIndex('calls', 'by_case', [
		run.runId,
		run.modelDir,
		caseNumber
	]);
	rows.sort((a, b) => a.seq - b.seq);
	return parseCallLog(
		rows.map((row) => `${row.json}\n`).join(''),
		`browser storage: ${callLogPath(run)} (case_number ${caseNumber})`
	);
}

/** Options of {@link importRuns}. */
export interface ImportOptions {
	/**
	 * Replace runs that are stored already (same run id and model folder): their manifest and
	 * every record are deleted in the same transaction that writes the bundle's. Only after the
	 * user confirmed it explicitly.
	 * @default false
	 */
	replace?: boolean;
}

/** Runs of a bundle that are in storage already. */
export async function findConflicts(
	store: IdbStore,
	runs: readonly BundleRun[]
): Promise<RunKey[]> {
	const found: RunKey[] = [];
	for (const { run } of runs) {
		if (await store.db.getKey('manifests', [run.runId, run.modelDir])) found.push(run);
	}
	return found;
}

/** Refused: runs with these keys are stored already and `replace` was not given. */
export class ImportConflictError extends CheckpointError {
	override name = 'ImportConflictError';
	constructor(readonly conflicts: RunKey[]) {
		super(
			`${conflicts.map(runLabel).join(', ')} ${conflicts.length === 1 ? 'is' : 'are'} in this browser already. ` +
				'Nothing was imported and nothing stored was changed. Delete the stored run first, or import ' +
				'into another browser profile, or confirm that the stored run is to be replaced.'
		);
	}
}

function rowsOf(entry: BundleRun): RecordRow[] {
	const rows: RecordRow[] = [];
	for (const [file, content] of Object.entries(entry.files) as [
		StageFile,
		NonNullable<BundleRun['files'][StageFile]>
	][]) {
		content.records.forEach((record, seq) => {
			rows.push({
				runId: entry.run.runId,
				modelDir: entry.run.modelDir,
				file,
				seq,
				case_number: caseKey(record.case_number),
				history_type: PAIRED_FILES.has(file) ? String(record.history_type) : '',
				json: content.lines[seq]
			});
		});
	}
	return rows;
}

/**
 * Writes validated runs (`readBundle`) into IndexedDB in ONE transaction: every manifest and
 * record, or nothing. A run stored already is refused (`ImportConflictError`) unless `replace`;
 * a run being written in another tab is refused (`RunLockedError`). Records are kept as their
 * JSON lines, so a later export gives back the very bytes imported.
 */
export async function importRuns(
	store: IdbStore,
	runs: readonly BundleRun[],
	options: ImportOptions = {}
): Promise<void> {
	const conflicts = await findConflicts(store, runs);
	if (conflicts.length && !options.replace) throw new ImportConflictError(conflicts);
	const releases: (() => Promise<void>)[] = [];
	try {
		for (const { run } of runs) releases.push(await store.lock(run));
		// No await on anything but this transaction's requests from here, or it would commit early.
		const tx = store.db.transaction(['manifests', 'records', 'calls'], 'readwrite');
		const manifests = tx.objectStore('manifests');
		const records = tx.objectStore('records');
		const calls = tx.objectStore('calls');
		try {
			for (const entry of runs) {
				const { runId, modelDir } = entry.run;
				// Call-log rows live only with their run; none can be left without one, but be sure.
				await calls.delete(callRange(entry.run));
				if (options.replace) {
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
				for (const row of rowsOf(entry)) await records.add(row);
				for (const [seq, json] of (entry.calls?.lines ?? []).entries()) {
					await calls.add({ runId, modelDir, seq, case_key: callCaseKey(json), json });
				}
			}
			await tx.done;
		} catch (e) {
			try {
				tx.abort();
			} catch {
				// already aborted
			}
			await tx.done.catch(() => undefined);
			const name = (e as Error | null)?.name ?? (tx.error?.name as string | undefined);
			if (name === 'ConstraintError') {
				throw new CheckpointError(
					'A run of the bundle was saved in this browser while it was being imported. Nothing was ' +
						'imported; try again.'
				);
			}
			if (name === 'QuotaExceededError' || tx.error?.name === 'QuotaExceededError') {
				throw new CheckpointError(
					'Browser storage is full, so the bundle was not imported (nothing was written). Free ' +
						'space by exporting and deleting old runs, then import again.'
				);
			}
			throw e;
		}
	} finally {
		for (const release of releases) await release();
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
			const forget = () => {
				if (shared === opening) shared = null;
			};
			store.db.addEventListener('versionchange', forget);
			store.db.addEventListener('close', forget);
			return store;
		});
		opening.catch(() => {
			if (shared === opening) shared = null;
		});
		shared = opening;
	}
	return shared;
}

/** Every file of several runs, path → text, run after run: the content of an export. */
export async function readRunsFiles(
	store: IdbStore,
	runs: readonly RunKey[]
): Promise<Map<string, string>> {
	const files = new Map<string, string>();
	for (const run of runs) {
		for (const [path, text] of await readRunFiles(store, run)) files.set(path, text);
	}
	return files;
}

/** The files of a run with their size in bytes (UTF-8), for single-file downloads. */
export async function runFileSizes(
	store: IdbStore,
	run: RunKey
): Promise<{ path: string; bytes: number }[]> {
	const encoder = new TextEncoder();
	return [...(await readRunFiles(store, run))].map(([path, text]) => ({
		path,
		bytes: encoder.encode(text).length
	}));
}

/**
 * The CLI's `CheckpointStore`: the canonical layout of SPEC §5 under an output root.
 *
 * Crash safety: the manifest and reordered stage files are written to a temporary file, synced,
 * then moved into place, so they are either whole or absent. Records are appended one complete
 * line per case and synced before `appendRecord` resolves; a crash can at worst leave a cut-off
 * last line. A final line without its line end can only be such an interrupted write, so a
 * writer holding the run's lock moves it aside, byte for byte, to `<file>.torn` beside the stage
 * file (a later one to `<file>.torn-2`, …), says so, and its case is generated again. A reader
 * without the lock (`results`) reports it (file and line) instead.
 *
 * Locking: `runs/<run-id>/<model>/.lock`, created exclusively, holds the writer's pid, host,
 * start time and a token. A lock left by a process of this host that is gone (pid not alive) is
 * taken over, with a note: it is renamed away under a unique name, the renamed file is checked
 * to be the very lock judged stale (a rival taking over at the same moment would have replaced
 * it; then it is put back and this writer refuses), and a new lock is created exclusively. A
 * lock of a live process, of another host (whose pids mean nothing here) or one that names no
 * process is refused; the error names the file and says when it is safe to delete it.
 */
import { randomUUID } from 'node:crypto';
import { promises as fs } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { parseCallLog } from '../core/calls/log';
import type { CallLogEntry } from '../core/calls/schema';
import type { CallLog } from '../core/calls/types';
import { CheckpointError, RunLockedError } from '../core/errors';
import { parseJsonl, toJsonLine, visitJsonl } from '../core/jsonl';
import {
	callLogPath,
	manifestPath,
	RESUME_SEALS_FILE,
	RUN_ID_PATTERN,
	stageFilePath,
	type RunKey
} from '../core/layout';
import {
	STAGE_FILES,
	STAGE_FILE_NAMES,
	type AnyRecord,
	type Manifest,
	type OperationalEntry,
	type StageFile
} from '../core/records';
import { checkRecordToAppend, compareRunKeys, runLabel } from '../core/store/checks';
import {
	checkManifest,
	manifestText,
	readManifestBytes,
	withOperationalEntry
} from '../core/store/manifest-file';
import { recordHead, recordHeadSync, type RecordHead } from '../core/store/heads';
import { describeIdentity, orderByIdentity, recordIdentity } from '../core/store/identity';
import type { CheckpointStore } from '../core/store/types';

/** What a lock file holds. */
export interface LockInfo {
	pid: number;
	hostname: string;
	/** ISO time the lock was taken. */
	started_at: string;
	/** Tells this lock from a later one at the same path, so release removes only its own. */
	token: string;
}

/** `runs/<run-id>/<model>/.lock`, next to the manifest. */
export function lockFilePath(run: RunKey): string {
	return `runs/${run.runId}/${run.modelDir}/.lock`;
}

/**
 * `runs/<run-id>/<model>/.resume-seals.json`: the run's resume seals (`core/engine/seal.ts`).
 * Not part of the canonical layout; a run without it (Python harness, older versions, a copy)
 * is checked in full on its next resume, then sealed.
 */
export function sealFilePath(run: RunKey): string {
	return `runs/${run.runId}/${run.modelDir}/${RESUME_SEALS_FILE}`;
}

/**
 * What a stage file is on disk, as far as `stat` tells: size, modification and change times (in
 * nanoseconds), inode and device. Any write changes the size or the times (the change time cannot
 * be set back by hand), and a copy or a replaced file has another inode. Null: no file.
 */
type Fingerprint = { size: string; mtime_ns: string; ctime_ns: string; ino: string; dev: string };

async function fingerprint(path: string): Promise<Fingerprint | null> {
	try {
		const s = await fs.stat(path, { bigint: true });
		return {
			size: String(s.size),
			mtime_ns: String(s.mtimeNs),
			ctime_ns: String(s.ctimeNs),
			ino: String(s.ino),
			dev: String(s.dev)
		};
	} catch (e) {
		if (errorCode(e) === 'ENOENT') return null;
		throw e;
	}
}

const sameFingerprint = (a: Fingerprint | null | undefined, b: Fingerprint | null) =>
	a !== undefined &&
	(a === null || b === null
		? a === b
		: a.size === b.size &&
			a.mtime_ns === b.mtime_ns &&
			a.ctime_ns === b.ctime_ns &&
			a.ino === b.ino &&
			a.dev === b.dev);

/**
 * The seal file: per stage, the key it was sealed under and its files' fingerprints; and what the
 * CLI last learnt of the run's dataset (`FsStoreOptions.datasetSeal`), opaque to the store.
 */
interface SealFile {
	version: 1;
	stages: Record<string, { key: string; files: Record<string, Fingerprint | null> }>;
	dataset?: DatasetSeal;
}

/**
 * What a caller knows of a run's dataset, under a key naming the dataset's bytes and how they
 * were read (the CLI's `dataset-seal.ts`). Kept with the resume seals, so a later start whose
 * key matches can open the run without parsing the dataset. Opaque to the store.
 */
export interface DatasetSeal {
	key: string;
	facts: unknown;
}

const errorCode = (e: unknown) => (e as NodeJS.ErrnoException | null)?.code;

/** True unless the pid is provably gone: EPERM means alive but owned by another user. */
function isAlive(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch (e) {
		return errorCode(e) !== 'ESRCH';
	}
}

async function readLockInfo(path: string): Promise<LockInfo | null> {
	try {
		const info = JSON.parse(await fs.readFile(path, 'utf8')) as Partial<LockInfo>;
		return typeof info.pid === 'number' && typeof info.hostname === 'string'
			? (info as LockInfo)
			: null;
	} catch {
		return null;
	}
}

/** Writes `data` to a temporary file beside `path` and syncs it; returns the temporary path. */
async function writeTemp(path: string, data: string | Uint8Array): Promise<string> {
	const tmp = join(
		dirname(path),
		`.${path.split(/[\\/]/).pop()}.tmp-${process.pid}-${randomUUID().slice(0, 8)}`
	);
	const handle = await fs.open(tmp, 'wx');
	try {
		await handle.writeFile(data);
		await handle.sync();
	} finally {
		await handle.close();
	}
	return tmp;
}

/** Makes a rename or link durable. Some platforms (Windows) cannot open a folder; skip there. */
async function syncDir(dir: string): Promise<void> {
	try {
		const handle = await fs.open(dir, 'r');
		try {
			await handle.sync();
		} finally {
			await handle.close();
		}
	} catch {
		// best effort
	}
}

async function removeIfEmpty(dir: string): Promise<void> {
	await fs.rmdir(dir).catch(() => undefined);
}

/** Options of {@link FsStore}. */
export interface FsStoreOptions {
	/**
	 * Told about repairs made on its own: a stale lock taken over, a torn last line moved aside.
	 * The CLI prints these as notes. @default ignored
	 */
	onNotice?: (message: string) => void;
	/**
	 * Written into the run's seal file with every stage seal this store writes (under the run's
	 * lock), for {@link FsStore.readDatasetSeal} to find at a later start. @default none
	 */
	datasetSeal?: DatasetSeal;
}

/** One stage file as this process knows it, from its first read or append on. */
interface FileState {
	file: StageFile;
	/**
	 * Each saved record's identity and head, in file order. Appended records keep no head (it
	 * would hold every response of the run in memory); `readHeads` reads the file again then.
	 */
	rows: { identity: string; head: RecordHead | null }[];
	/** Saved identities, and those of appends not yet synced (reserved, so a duplicate is refused at once). */
	identities: Set<string>;
	/** Bytes of the file as saved. */
	size: number;
	/** Kept open while the run is locked by this store, so an append is one write and one sync. */
	handle: FileHandle | null;
	/** Appends waiting for the next write: several at once share one write and one sync. */
	pending: PendingAppend[];
	flushQueued: boolean;
}

interface PendingAppend {
	line: Buffer;
	identity: string;
	resolve: () => void;
	reject: (error: unknown) => void;
}

export class FsStore implements CheckpointStore, CallLog {
	/**
	 * Stage files this process has read or appended to, by absolute path. A file's state is
	 * trusted for reads (heads, identities, order) only while this store holds its run's lock:
	 * then no other writer can change the file. Appends keep it up to date.
	 */
	readonly #files = new Map<string, FileState>();
	/**
	 * Run folders (`runs/<id>/<model>` layout prefix) this store holds the lock of: only then are
	 * its files' states trusted, and only a writer repairs torn lines.
	 */
	readonly #locked = new Set<string>();
	/** Per-file chains so appends, reads and reorders of one file in this process never interleave. */
	readonly #queues = new Map<string, Promise<unknown>>();
	/** Call logs whose last line was checked by this process (a torn tail is dropped once). */
	readonly #callLogsChecked = new Set<string>();
	/** Call logs kept open while this store holds their run's lock, by absolute path. */
	readonly #callLogs = new Map<string, FileHandle>();
	/** Call-log lines waiting for the next write, by absolute path (`appendCall`). */
	readonly #callLines = new Map<
		string,
		{ bytes: Buffer; resolve: () => void; reject: (error: unknown) => void }[]
	>();
	readonly #notice: (message: string) => void;
	readonly #datasetSeal: DatasetSeal | undefined;

	/** @param root the output root (`--output-root`) holding `runs/`, `AwN_gen/`, … */
	constructor(
		readonly root: string,
		options: FsStoreOptions = {}
	) {
		this.#notice = options.onNotice ?? (() => {});
		this.#datasetSeal = options.datasetSeal;
	}

	/** The absolute path of a layout path. */
	pathOf(layoutPath: string): string {
		return join(this.root, ...layoutPath.split('/'));
	}

	async lock(run: RunKey): Promise<() => Promise<void>> {
		const path = this.pathOf(lockFilePath(run));
		try {
			await fs.mkdir(dirname(path), { recursive: true });
		} catch (e) {
			throw this.#unwritable(e, dirname(path));
		}
		const info: LockInfo = {
			pid: process.pid,
			hostname: hostname(),
			started_at: new Date().toISOString(),
			token: randomUUID()
		};
		let handle: fs.FileHandle;
		try {
			handle = await fs.open(path, 'wx');
		} catch (e) {
			if (errorCode(e) !== 'EEXIST') throw this.#unwritable(e, path);
			const stale = await this.#takeOverStale(run, path);
			if (!stale) throw await this.#lockedError(run, path);
			try {
				handle = await fs.open(path, 'wx');
			} catch (again) {
				// Another writer created its lock between the takeover and this open.
				if (errorCode(again) === 'EEXIST') throw await this.#lockedError(run, path);
				throw again;
			}
			this.#notice(
				`${runLabel(run)}: took over the lock ${path} left by process ${stale.pid} on this ` +
					`host (started ${stale.started_at}), which is no longer running.`
			);
		}
		try {
			await handle.writeFile(`${JSON.stringify(info)}\n`);
			await handle.sync();
		} finally {
			await handle.close();
		}
		// Another process may have written while this one did not hold the lock.
		await this.#forget(run);
		this.#locked.add(runName(run));
		let held = true;
		return async () => {
			if (!held) return;
			held = false;
			await this.#forget(run);
			this.#locked.delete(runName(run));
			if ((await readLockInfo(path))?.token === info.token) {
				await fs.unlink(path).catch((e) => {
					if (errorCode(e) === 'ENOENT') return;
					throw new CheckpointError(
						`could not remove the lock file ${path} (${errorCode(e) ?? (e as Error).message}); ` +
							'the next run on this host takes it over once this process has ended, or delete it.'
					);
				});
			}
		};
	}

	/**
	 * A file-system error from the first write under the output root, as a `CheckpointError`
	 * (exit 2) naming the folder and what to do; other errors pass unchanged.
	 */
	#unwritable(e: unknown, path: string): unknown {
		const code = errorCode(e);
		if (!code || !['EACCES', 'EPERM', 'EROFS', 'ENOTDIR', 'ENOENT', 'EEXIST'].includes(code)) {
			return e;
		}
		const why =
			code === 'EROFS'
				? 'the file system is read-only'
				: code === 'ENOTDIR' || code === 'EEXIST'
					? 'a file stands where a folder is needed'
					: code === 'ENOENT'
						? 'the folder cannot be created'
						: 'permission denied';
		return new CheckpointError(
			`cannot write under the output root ${this.root}: ${why} (${code} at ${path}). Choose a ` +
				'folder you can write with --output-root, or make this one writable; nothing was ' +
				'written and no model was called.'
		);
	}

	/**
	 * Moves a lock of a dead process of this host out of the way. Returns what it held, or null
	 * when the lock is not provably stale (live, other host, unreadable) or a rival got there first.
	 */
	async #takeOverStale(run: RunKey, path: string): Promise<LockInfo | null> {
		const info = await readLockInfo(path);
		if (!info || info.hostname !== hostname() || info.pid === process.pid || isAlive(info.pid)) {
			return null;
		}
		const aside = `${path}.stale-${process.pid}-${randomUUID().slice(0, 8)}`;
		try {
			await fs.rename(path, aside);
		} catch (e) {
			if (errorCode(e) === 'ENOENT') return info; // removed meanwhile: try to create it
			throw e;
		}
		const moved = await readLockInfo(aside);
		const same =
			moved !== null &&
			moved.pid === info.pid &&
			moved.started_at === info.started_at &&
			moved.token === info.token;
		if (!same) {
			// A rival replaced the stale lock with its own before the rename: give it back.
			await fs.link(aside, path).catch(() => undefined);
			await fs.unlink(aside).catch(() => undefined);
			return null;
		}
		await fs.unlink(aside).catch(() => undefined);
		return info;
	}

	async #lockedError(run: RunKey, path: string): Promise<RunLockedError> {
		const info = await readLockInfo(path);
		const only = 'Only one writer per run id and model is allowed.';
		if (info === null) {
			return new RunLockedError(
				`${runLabel(run)}: the lock file ${path} exists but does not say who holds it (a writer may ` +
					'have been killed while taking it). If no lexpilot process is writing this run, delete ' +
					'that file and run again.'
			);
		}
		const who = `process ${info.pid} on ${info.hostname}, started ${info.started_at}`;
		if (info.hostname !== hostname()) {
			return new RunLockedError(
				`${runLabel(run)} is locked by ${who} (${path}). ${only} If that process is no longer ` +
					'running, delete the lock file and run again.'
			);
		}
		if (info.pid === process.pid) {
			return new RunLockedError(
				`${runLabel(run)} is already being written by this process (lock file ${path}). ${only}`
			);
		}
		if (isAlive(info.pid)) {
			return new RunLockedError(
				`${runLabel(run)} is being written by another lexpilot ${who} (lock file ${path}). Wait ` +
					`for it to finish or stop it. ${only}`
			);
		}
		return new RunLockedError(
			`${runLabel(run)}: the lock file ${path} was left by ${who}, which is no longer running ` +
				'(the run was interrupted). Make sure no other lexpilot writes this run, delete the lock ' +
				'file, and run again to resume.'
		);
	}

	async readManifest(run: RunKey): Promise<Manifest | null> {
		const path = this.pathOf(manifestPath(run));
		let bytes: Uint8Array;
		try {
			bytes = await fs.readFile(path);
		} catch (e) {
			if (errorCode(e) === 'ENOENT') return null;
			throw e;
		}
		return readManifestBytes(bytes, path, { run });
	}

	async createManifest(manifest: Manifest): Promise<void> {
		const run = { runId: manifest.run_id, modelDir: manifest.model_dir };
		const path = this.pathOf(manifestPath(run));
		await checkManifest(manifest, path);
		const exists = () =>
			new CheckpointError(`${path} exists already; a saved manifest is never replaced.`);
		await fs.mkdir(dirname(path), { recursive: true });
		const tmp = await writeTemp(path, manifestText(manifest));
		try {
			// link, unlike rename, fails when the target exists: no window between check and write.
			await fs.link(tmp, path);
		} catch (e) {
			if (errorCode(e) === 'EEXIST') throw exists();
			// Some file systems cannot hard-link; fall back to check-then-rename.
			if (!['EPERM', 'ENOTSUP', 'ENOSYS', 'EOPNOTSUPP'].includes(errorCode(e) ?? '')) throw e;
			if (
				await fs.stat(path).then(
					() => true,
					() => false
				)
			)
				throw exists();
			await fs.rename(tmp, path);
		} finally {
			await fs.unlink(tmp).catch(() => undefined);
		}
		await syncDir(dirname(path));
	}

	async recordOperational(run: RunKey, entry: OperationalEntry): Promise<void> {
		const path = this.pathOf(manifestPath(run));
		let bytes: Uint8Array;
		try {
			bytes = await fs.readFile(path);
		} catch (e) {
			if (errorCode(e) === 'ENOENT') {
				throw new CheckpointError(`${path}: no manifest to record the resume in.`);
			}
			throw e;
		}
		const saved = await readManifestBytes(bytes, path, { run, asWritten: true });
		const next = await checkManifest(withOperationalEntry(saved, entry), path, {
			run,
			asWritten: true
		});
		// Whole or absent, as on creation: a crash leaves the old manifest or the new one.
		const tmp = await writeTemp(path, manifestText(next));
		try {
			await fs.rename(tmp, path);
		} catch (e) {
			await fs.unlink(tmp).catch(() => undefined);
			throw e;
		}
		await syncDir(dirname(path));
	}

	async readRecords(run: RunKey, file: StageFile): Promise<AnyRecord[]> {
		const path = this.pathOf(stageFilePath(run, file));
		return this.#serial(path, () => this.#read(path, file, run));
	}

	/**
	 * From the records (a file holds whole lines, so there is nothing cheaper to read), once per
	 * locked session: while this store holds the run's lock it keeps the heads it read, so the
	 * stages of one process that read a file (gen and ljp-interaction both read interactions)
	 * read and hash it once. A file appended to since is read again.
	 */
	async readHeads(run: RunKey, file: StageFile): Promise<RecordHead[]> {
		if (!this.#locked.has(runName(run))) {
			const records = await this.readRecords(run, file);
			return Promise.all(records.map((record) => recordHead(file, record)));
		}
		const path = this.pathOf(stageFilePath(run, file));
		let state = await this.#state(path, file, run);
		if (state.rows.some((row) => row.head === null)) {
			// After the appends queued so far are on disk.
			state = await this.#serial(path, async () => {
				this.#files.delete(path);
				return this.#load(path, file, run, state.handle);
			});
		}
		return state.rows.map((row) => row.head!);
	}

	async appendRecord(run: RunKey, file: StageFile, record: AnyRecord): Promise<void> {
		const path = this.pathOf(stageFilePath(run, file));
		checkRecordToAppend(file, record, path);
		const line = Buffer.from(toJsonLine(record), 'utf8');
		const identity = recordIdentity(file, record);
		// Reading first also refuses to append after a malformed or cut-off line.
		const state = await this.#state(path, file, run);
		// No await between the check and the reservation: concurrent duplicates cannot both pass.
		if (state.identities.has(identity)) {
			throw new CheckpointError(
				`${path}: ${describeIdentity(identity)} is saved already; a saved record is never overwritten.`
			);
		}
		state.identities.add(identity);
		const keep = this.#locked.has(runName(run));
		await new Promise<void>((resolve, reject) => {
			state.pending.push({ line, identity, resolve, reject });
			if (state.flushQueued) return;
			state.flushQueued = true;
			void this.#serial(path, () => this.#flush(path, state, keep));
		});
	}

	/**
	 * Writes every waiting append of a file at once and syncs it; each append resolves once its
	 * line is on disk. A failed write (disk full) is cut back so no half line is left for the next
	 * append to extend, and every append of the batch is refused, its identity free again.
	 */
	async #flush(path: string, state: FileState, keep: boolean): Promise<void> {
		state.flushQueued = false;
		const batch = state.pending.splice(0);
		if (batch.length === 0) return;
		try {
			if (!state.handle) {
				await fs.mkdir(dirname(path), { recursive: true });
				state.handle = await fs.open(path, 'a');
			}
			const handle = state.handle;
			const bytes = batch.length === 1 ? batch[0].line : Buffer.concat(batch.map((a) => a.line));
			try {
				await handle.write(bytes);
				await handle.datasync();
			} catch (e) {
				// A failed write (disk full) must not leave half a line for the next append to extend.
				await handle.truncate(state.size).catch(() => undefined);
				throw e;
			}
			state.size += bytes.length;
			for (const append of batch) {
				state.rows.push({ identity: append.identity, head: null });
				append.resolve();
			}
		} catch (e) {
			const readOnly = ['EROFS', 'EACCES', 'EPERM'].includes(errorCode(e) ?? '');
			for (const append of batch) {
				state.identities.delete(append.identity);
				append.reject(
					new CheckpointError(
						`${path}: could not save the record of ${describeIdentity(append.identity)} ` +
							`(${(e as Error).message}); earlier records are kept. ` +
							(readOnly
								? 'The file or its disk is no longer writable: fix that, then resume.'
								: 'Free space, then resume.')
					)
				);
			}
		} finally {
			if (!keep) await this.#close(state);
		}
	}

	/** The state of a stage file, read (and validated) on first use. */
	#state(path: string, file: StageFile, run: RunKey): Promise<FileState> {
		const known = this.#files.get(path);
		if (known) return Promise.resolve(known);
		return this.#serial(
			path,
			async () => this.#files.get(path) ?? this.#load(path, file, run, null)
		);
	}

	/** Reads and validates a stage file into a new state; call it inside `#serial`. */
	async #load(
		path: string,
		file: StageFile,
		run: RunKey,
		handle: FileHandle | null
	): Promise<FileState> {
		let bytes: Buffer;
		try {
			bytes = await fs.readFile(path);
		} catch (e) {
			if (errorCode(e) !== 'ENOENT') throw e;
			bytes = Buffer.alloc(0);
		}
		bytes = await this.#repairTorn(path, bytes, run);
		// Each record's head at once, so the whole records (histories and all, most of a run's
		// bytes) are never all in memory together; without a synchronous SHA-256, afterwards.
		const heads: RecordHead[] = [];
		const later: { at: number; record: AnyRecord }[] = [];
		visitJsonl(bytes.toString('utf8'), STAGE_FILES[file].schema, path, (record) => {
			const head = recordHeadSync(file, record as AnyRecord);
			if (head === null) later.push({ at: heads.length, record: record as AnyRecord });
			heads.push(head!);
		});
		for (const { at, record } of later) heads[at] = await recordHead(file, record);
		const identities = new Set<string>();
		const rows = heads.map((head) => {
			const identity = recordIdentity(file, head.record);
			identities.add(identity);
			return { identity, head };
		});
		const state: FileState = {
			file,
			rows,
			identities,
			size: bytes.length,
			handle,
			pending: [],
			flushQueued: false
		};
		this.#files.set(path, state);
		return state;
	}

	async #close(state: FileState): Promise<void> {
		const handle = state.handle;
		state.handle = null;
		await handle?.close().catch(() => undefined);
	}

	/** Drops what this process knows of a run's files (after letting queued writes finish). */
	async #forget(run: RunKey): Promise<void> {
		await this.#closeCallLog(run);
		for (const file of STAGE_FILE_NAMES) {
			const path = this.pathOf(stageFilePath(run, file));
			const state = this.#files.get(path);
			if (!state) continue;
			await this.#serial(path, async () => undefined);
			await this.#close(state);
			this.#files.delete(path);
		}
	}

	/**
	 * Appends one line to `calls.jsonl`. Not synced per line (a log, not a checkpoint: losing the
	 * last lines in a crash loses no result). The first append of a process drops a cut-off last
	 * line a crash may have left, so the file stays readable; it reads only the file's tail for
	 * that. While this store holds the run's lock the file stays open, so a line is one write, and
	 * lines that arrive while a write is on its way share the next one.
	 */
	async appendCall(run: RunKey, line: string): Promise<void> {
		const path = this.pathOf(callLogPath(run));
		const keep = this.#locked.has(runName(run));
		let queue = this.#callLines.get(path);
		if (!queue) {
			queue = [];
			this.#callLines.set(path, queue);
		}
		await new Promise<void>((resolve, reject) => {
			queue.push({ bytes: Buffer.from(line, 'utf8'), resolve, reject });
			// One write for every line waiting: the lines of calls that end while a write is on
			// its way go out together (one thread-pool job instead of one each).
			if (queue.length === 1) void this.#serial(path, () => this.#writeCallLines(path, keep));
		});
	}

	/** Writes every call-log line waiting for `path` at once; see `appendCall`. */
	async #writeCallLines(path: string, keep: boolean): Promise<void> {
		const batch = this.#callLines.get(path) ?? [];
		this.#callLines.delete(path);
		if (batch.length === 0) return;
		try {
			let handle = this.#callLogs.get(path);
			if (!handle) {
				await fs.mkdir(dirname(path), { recursive: true });
				handle = await fs.open(path, 'a+');
				try {
					if (!this.#callLogsChecked.has(path)) {
						await dropTornCallLine(handle);
						this.#callLogsChecked.add(path);
					}
				} catch (e) {
					await handle.close().catch(() => undefined);
					throw e;
				}
				if (keep) this.#callLogs.set(path, handle);
			}
			try {
				const bytes =
					batch.length === 1 ? batch[0].bytes : Buffer.concat(batch.map((line) => line.bytes));
				for (let done = 0; done < bytes.length;) {
					done += (await handle.write(bytes, done, bytes.length - done, null)).bytesWritten;
				}
			} finally {
				if (!keep) await handle.close().catch(() => undefined);
			}
			for (const line of batch) line.resolve();
		} catch (e) {
			for (const line of batch) line.reject(e);
		}
	}

	/** Closes the call log of a run kept open by `appendCall` (after its queued lines). */
	async #closeCallLog(run: RunKey): Promise<void> {
		const path = this.pathOf(callLogPath(run));
		await this.#serial(path, async () => {
			const handle = this.#callLogs.get(path);
			this.#callLogs.delete(path);
			await handle?.close().catch(() => undefined);
		});
	}

	async readCalls(run: RunKey): Promise<CallLogEntry[]> {
		const path = this.pathOf(callLogPath(run));
		return this.#serial(path, async () => {
			const text = await fs.readFile(path, 'utf8').catch((e) => {
				if (errorCode(e) === 'ENOENT') return '';
				throw e;
			});
			return parseCallLog(text, path);
		});
	}

	async listRuns(): Promise<RunKey[]> {
		const runs: RunKey[] = [];
		const runsDir = this.pathOf('runs');
		const runIds = await fs.readdir(runsDir, { withFileTypes: true }).catch((e) => {
			if (errorCode(e) === 'ENOENT') return [];
			throw e;
		});
		for (const runEntry of runIds) {
			if (!runEntry.isDirectory() || !RUN_ID_PATTERN.test(runEntry.name)) continue;
			const models = await fs.readdir(join(runsDir, runEntry.name), { withFileTypes: true });
			for (const model of models) {
				if (!model.isDirectory()) continue;
				const run = { runId: runEntry.name, modelDir: model.name };
				const hasManifest = await fs.stat(this.pathOf(manifestPath(run))).then(
					(s) => s.isFile(),
					() => false
				);
				if (hasManifest) runs.push(run);
			}
		}
		return runs.sort(compareRunKeys);
	}

	async deleteRun(run: RunKey): Promise<void> {
		// Holding the lock while deleting keeps a writer from starting halfway through.
		const release = await this.lock(run);
		try {
			for (const file of STAGE_FILE_NAMES) {
				const path = this.pathOf(stageFilePath(run, file));
				const state = this.#files.get(path);
				if (state) await this.#close(state);
				this.#files.delete(path);
				await fs.rm(path, { force: true });
				await removeIfEmpty(dirname(path));
				await removeIfEmpty(dirname(dirname(path)));
			}
			await this.#closeCallLog(run);
			await fs.rm(this.pathOf(callLogPath(run)), { force: true });
			this.#callLogsChecked.delete(this.pathOf(callLogPath(run)));
			await fs.rm(this.pathOf(sealFilePath(run)), { force: true });
			await fs.rm(this.pathOf(manifestPath(run)), { force: true });
		} finally {
			await release();
		}
		// Only known files were removed; a folder holding anything else stays.
		const runDir = this.pathOf(`runs/${run.runId}/${run.modelDir}`);
		await removeIfEmpty(runDir);
		await removeIfEmpty(dirname(runDir));
	}

	async sealStage(
		run: RunKey,
		stage: string,
		key: string,
		files: readonly StageFile[]
	): Promise<void> {
		const path = this.pathOf(sealFilePath(run));
		await this.#serial(path, async () => {
			const entry: SealFile['stages'][string] = { key, files: {} };
			for (const file of files) {
				// After the appends queued so far are on disk.
				const filePath = this.pathOf(stageFilePath(run, file));
				entry.files[file] = await this.#serial(filePath, () => fingerprint(filePath));
			}
			const saved = (await this.#readSeals(path)) ?? { version: 1, stages: {} };
			saved.stages[stage] = entry;
			if (this.#datasetSeal) saved.dataset = this.#datasetSeal;
			await this.#writeSeals(path, saved);
		});
	}

	/** Replaces the seal file whole (a reader sees the old one or the new one). */
	async #writeSeals(path: string, seals: SealFile): Promise<void> {
		const tmp = await writeTemp(path, `${JSON.stringify(seals)}\n`);
		try {
			await fs.rename(tmp, path);
		} catch (e) {
			await fs.unlink(tmp).catch(() => undefined);
			throw e;
		}
	}

	async isStageSealed(
		run: RunKey,
		stage: string,
		key: string,
		files: readonly StageFile[]
	): Promise<boolean> {
		// A reader without the lock could see a file another process is writing.
		if (!this.#locked.has(runName(run))) return false;
		const path = this.pathOf(sealFilePath(run));
		const saved = await this.#serial(path, () => this.#readSeals(path));
		const entry = saved?.stages[stage];
		if (!entry || entry.key !== key || typeof entry.files !== 'object' || !entry.files)
			return false;
		for (const file of files) {
			const filePath = this.pathOf(stageFilePath(run, file));
			const now = await this.#serial(filePath, () => fingerprint(filePath));
			if (!Object.hasOwn(entry.files, file) || !sameFingerprint(entry.files[file], now)) {
				return false;
			}
		}
		// A run sealed before its dataset was (an older version): the dataset seal joins it now.
		const dataset = this.#datasetSeal;
		if (dataset && JSON.stringify(saved?.dataset) !== JSON.stringify(dataset)) {
			await this.#serial(path, async () => {
				const now = await this.#readSeals(path);
				if (!now) return;
				now.dataset = dataset;
				await this.#writeSeals(path, now);
			}).catch(() => undefined);
		}
		return true;
	}

	/**
	 * The dataset seal last written with the run's stage seals, or null. Read without the lock: a
	 * hint the caller checks (its key) and the run checks again (its manifest, its stage seals).
	 */
	async readDatasetSeal(run: RunKey): Promise<DatasetSeal | null> {
		const path = this.pathOf(sealFilePath(run));
		const entry = (await this.#serial(path, () => this.#readSeals(path)))?.dataset;
		return entry && typeof entry === 'object' && typeof entry.key === 'string' ? entry : null;
	}

	/** The seal file, or null when there is none or it is not one (then nothing is sealed). */
	async #readSeals(path: string): Promise<SealFile | null> {
		try {
			const value = JSON.parse(await fs.readFile(path, 'utf8')) as SealFile;
			const ok =
				value?.version === 1 &&
				typeof value.stages === 'object' &&
				value.stages !== null &&
				!Array.isArray(value.stages);
			return ok ? value : null;
		} catch {
			return null;
		}
	}

	async finalizeStageFile(run: RunKey, file: StageFile, order: readonly string[]): Promise<void> {
		const path = this.pathOf(stageFilePath(run, file));
		const locked = this.#locked.has(runName(run));
		await this.#serial(path, async () => {
			const state = this.#files.get(path);
			// A file this session knows whole, already in order: nothing to read or write.
			if (locked && state && state.pending.length === 0 && inOrder(state.rows, order)) return;
			let bytes: Buffer;
			try {
				bytes = await fs.readFile(path);
			} catch (e) {
				if (errorCode(e) === 'ENOENT') return;
				throw e;
			}
			const identities: string[] = [];
			visitJsonl(bytes.toString('utf8'), STAGE_FILES[file].schema, path, (record) =>
				identities.push(recordIdentity(file, record as AnyRecord))
			);
			// Lines are moved as bytes, so every record stays byte-identical.
			const lines = splitLines(bytes);
			const rows = identities.map((identity, i) => ({
				bytes: lines[i],
				identity,
				row: state?.rows[i]
			}));
			const sorted = orderByIdentity(rows, (row) => row.identity, order, path);
			if (sorted.every((row, i) => row === rows[i])) return;
			const tmp = await writeTemp(path, Buffer.concat(sorted.map((row) => row.bytes)));
			if (state) await this.#close(state);
			await fs.rename(tmp, path);
			await syncDir(dirname(path));
			// The known heads follow their lines (a kept handle would write to the replaced file).
			if (locked && state && state.rows.length === rows.length) {
				state.rows = sorted.map((row) => row.row!);
			} else {
				this.#files.delete(path);
			}
		});
	}

	async #read(path: string, file: StageFile, run: RunKey): Promise<AnyRecord[]> {
		let bytes: Buffer;
		try {
			bytes = await fs.readFile(path);
		} catch (e) {
			if (errorCode(e) === 'ENOENT') return [];
			throw e;
		}
		bytes = await this.#repairTorn(path, bytes, run);
		return parseJsonl(bytes.toString('utf8'), STAGE_FILES[file].schema, path) as AnyRecord[];
	}

	/** The bytes of a stage file, its torn last line moved aside when this store holds the lock. */
	async #repairTorn(path: string, bytes: Buffer, run: RunKey): Promise<Buffer> {
		if (bytes.length === 0 || bytes[bytes.length - 1] === 0x0a) return bytes;
		return this.#locked.has(runName(run)) ? this.#moveTornLine(path, bytes) : bytes;
	}

	/**
	 * Moves the final line of `path`, which has no line end (a write cut off by a crash), to a
	 * `.torn` file beside it and cuts it off the stage file. Returns the bytes that remain.
	 */
	async #moveTornLine(path: string, bytes: Buffer): Promise<Buffer> {
		const keep = bytes.lastIndexOf(0x0a) + 1;
		const torn = bytes.subarray(keep);
		let line = 1;
		for (let i = bytes.indexOf(0x0a); i !== -1 && i < keep; i = bytes.indexOf(0x0a, i + 1)) line++;
		let target = `${path}.torn`;
		for (let n = 2; ; n++) {
			try {
				const handle = await fs.open(target, 'wx');
				try {
					await handle.writeFile(torn);
					await handle.sync();
				} finally {
					await handle.close();
				}
				break;
			} catch (e) {
				if (errorCode(e) !== 'EEXIST') throw e;
				target = `${path}.torn-${n}`;
			}
		}
		await fs.truncate(path, keep);
		const handle = await fs.open(path, 'r+');
		try {
			await handle.sync();
		} finally {
			await handle.close();
		}
		await syncDir(dirname(path));
		this.#notice(
			`${path}, line ${line}: the last line (${torn.length} bytes) has no line end, so it was cut ` +
				`off while being written (the run was interrupted). It was moved to ${target}; its case ` +
				'is generated again.'
		);
		return bytes.subarray(0, keep);
	}

	#serial<T>(path: string, task: () => Promise<T>): Promise<T> {
		const previous = this.#queues.get(path) ?? Promise.resolve();
		const next = previous.then(task, task);
		const settled = next.catch(() => undefined);
		this.#queues.set(path, settled);
		void settled.then(() => {
			if (this.#queues.get(path) === settled) this.#queues.delete(path);
		});
		return next;
	}
}

/**
 * Cuts a call log's last line when it has no line end (a crash mid-write), reading the file
 * backwards from its end in blocks until the previous line end: never the whole log.
 */
async function dropTornCallLine(handle: FileHandle): Promise<void> {
	const { size } = await handle.stat();
	if (size === 0) return;
	const last = Buffer.alloc(1);
	await handle.read(last, 0, 1, size - 1);
	if (last[0] === 0x0a) return;
	const block = Buffer.alloc(64 * 1024);
	let end = size;
	while (end > 0) {
		const start = Math.max(0, end - block.length);
		const { bytesRead } = await handle.read(block, 0, end - start, start);
		const at = block.subarray(0, bytesRead).lastIndexOf(0x0a);
		if (at !== -1) {
			await handle.truncate(start + at + 1);
			return;
		}
		end = start;
	}
	await handle.truncate(0);
}

/** `runs/<id>/<model>`: what a lock covers. */
function runName(run: RunKey): string {
	return `${run.runId}/${run.modelDir}`;
}

/**
 * True when every row's identity is in `order` and they come in its order: `finalizeStageFile`
 * would leave the file as it is. (It would refuse a row outside `order`; so does this answer.)
 */
function inOrder(rows: readonly { identity: string }[], order: readonly string[]): boolean {
	const position = new Map(order.map((identity, i) => [identity, i]));
	let last = -1;
	for (const { identity } of rows) {
		const at = position.get(identity);
		if (at === undefined || at <= last) return false;
		last = at;
	}
	return true;
}

/** Splits file bytes into lines, each with its `\n`, after any UTF-8 byte-order mark. */
function splitLines(bytes: Buffer): Buffer[] {
	const start = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
	const lines: Buffer[] = [];
	for (let from = start; from < bytes.length;) {
		const end = bytes.indexOf(0x0a, from);
		const to = end === -1 ? bytes.length : end + 1;
		lines.push(bytes.subarray(from, to));
		from = to;
	}
	return lines;
}

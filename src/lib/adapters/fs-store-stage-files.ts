/**
 * Stage files as this process knows them. Records are appended one complete line per case and
 * synced before `append` resolves; a crash can at worst leave a cut-off last line (see
 * `fs-store-torn.ts`). While the store holds the run's lock it keeps, per file, each record's
 * identity and head and a handle open, so a second stage reading a file parses it once and
 * appends that arrive together share one synced write (`APPEND_SYNCED`).
 */
import { constants, promises as fs } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { parseJsonl, toJsonLine } from '../core/jsonl';
import { stageFilePath, type RunKey } from '../core/layout';
import { STAGE_FILES, STAGE_FILE_NAMES, type AnyRecord, type StageFile } from '../core/records';
import { checkRecordToAppend } from '../core/store/checks';
import { recordHead, type RecordHead } from '../core/store/heads';
import { aboutRecord, recordIdentity } from '../core/store/identity';
import type { StoreContext } from './fs-store-context';
import { appendError, fileState, syncDirs, type FileState } from './fs-store-file-state';
import { readIfExists } from './fs-store-io';
import { NOFOLLOW, orSymlink, refuseLinks } from './fs-store-links';
import { repairTorn } from './fs-store-torn';
import { cutBack, writeAll } from './fs-store-write';

/**
 * How a stage file is opened for appends. Where the platform has `O_DSYNC`, a write returns once
 * its bytes are on disk, as a write and an `fdatasync` do: one job of the thread pool per batch
 * instead of two. Elsewhere (Windows) the file is opened as `a` and synced after each write.
 */
export const APPEND_SYNCED =
	constants.O_DSYNC === undefined
		? null
		: constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_DSYNC | NOFOLLOW;

/** `FsStore`'s `readRecords`, `readHeads` and `appendRecord`, over kept file states. */
export class StageFiles {
	readonly #ctx: StoreContext;
	/**
	 * Stage files this process has read or appended to, by absolute path. A file's state is
	 * trusted for reads (heads, identities, order) only while the store holds its run's lock:
	 * then no other writer can change the file. Appends keep it up to date.
	 */
	readonly #files = new Map<string, FileState>();

	constructor(ctx: StoreContext) {
		this.#ctx = ctx;
	}

	/** The kept state of a file, if any (`finalizeStageFile`). */
	known(path: string): FileState | undefined {
		return this.#files.get(path);
	}

	async read(run: RunKey, file: StageFile): Promise<AnyRecord[]> {
		const path = this.#ctx.pathOf(stageFilePath(run, file));
		return this.#ctx.serial(path, async () => {
			await refuseLinks(this.#ctx.root, path);
			const bytes = await readIfExists(path);
			if (bytes === null) return [];
			const whole = await this.#repair(path, bytes, run);
			return parseJsonl(whole.toString('utf8'), STAGE_FILES[file].schema, path) as AnyRecord[];
		});
	}

	/**
	 * From the records (a file holds whole lines, so there is nothing cheaper to read), once per
	 * locked session: while the store holds the run's lock it keeps the heads it read, so the
	 * stages of one process that read a file (gen and ljp-interaction both read interactions)
	 * read and hash it once. A file appended to since is read again.
	 */
	async heads(run: RunKey, file: StageFile): Promise<RecordHead[]> {
		if (!this.#ctx.holdsLock(run)) {
			const records = await this.read(run, file);
			return Promise.all(records.map((record) => recordHead(file, record)));
		}
		const path = this.#ctx.pathOf(stageFilePath(run, file));
		let state = await this.#state(path, file, run);
		if (state.rows.some((row) => row.head === null)) {
			// After the appends queued so far are on disk.
			state = await this.#ctx.serial(path, async () => {
				this.#files.delete(path);
				return this.#load(path, file, run, state.handle);
			});
		}
		return state.rows.map((row) => row.head!);
	}

	async append(run: RunKey, file: StageFile, record: AnyRecord): Promise<void> {
		const path = this.#ctx.pathOf(stageFilePath(run, file));
		checkRecordToAppend(file, record, path);
		const line = Buffer.from(toJsonLine(record), 'utf8');
		const identity = recordIdentity(file, record);
		// Reading first also refuses to append after a malformed or cut-off line.
		const state = await this.#state(path, file, run);
		// No await between the check and the reservation: concurrent duplicates cannot both pass.
		if (state.identities.has(identity)) {
			throw aboutRecord('record_saved_already', path, identity);
		}
		state.identities.add(identity);
		const keep = this.#ctx.holdsLock(run);
		await new Promise<void>((resolve, reject) => {
			state.pending.push({ line, identity, resolve, reject });
			if (state.flushQueued) return;
			state.flushQueued = true;
			void this.#ctx.serial(path, () => this.#flush(path, state, keep));
		});
	}

	/**
	 * Writes every waiting append of a file at once and syncs it; each append resolves once its
	 * line is on disk, to the last byte. A failed write (disk full) is cut back so no half line is
	 * left for the next append to extend, and every append of the batch is refused, its identity
	 * free again; when the cut fails too, the file takes no more appends in this process (the
	 * next writer to load it moves the cut-off line aside as a torn line).
	 */
	async #flush(path: string, state: FileState, keep: boolean): Promise<void> {
		state.flushQueued = false;
		const batch = state.pending.splice(0);
		if (batch.length === 0) return;
		try {
			if (state.damaged !== null) throw state.damaged;
			if (!state.handle) {
				await fs.mkdir(dirname(path), { recursive: true });
				state.handle = await fs.open(path, APPEND_SYNCED ?? 'a').catch((e) => {
					throw orSymlink(e, path);
				});
			}
			const handle = state.handle;
			const bytes = batch.length === 1 ? batch[0].line : Buffer.concat(batch.map((a) => a.line));
			try {
				await writeAll(handle, bytes, path);
				if (APPEND_SYNCED === null) await handle.datasync();
				// A new file's name must be on disk before its first record counts as saved.
				if (state.size === 0) await syncDirs(path);
			} catch (e) {
				if (!(await cutBack(handle, state.size))) state.damaged = e;
				throw e;
			}
			state.size += bytes.length;
			for (const append of batch) {
				state.rows.push({ identity: append.identity, head: null });
				append.resolve();
			}
		} catch (e) {
			for (const append of batch) {
				state.identities.delete(append.identity);
				append.reject(appendError(path, append.identity, e));
			}
		} finally {
			if (!keep) await this.close(state);
		}
	}

	/** The state of a stage file, read (and validated) on first use. */
	#state(path: string, file: StageFile, run: RunKey): Promise<FileState> {
		const known = this.#files.get(path);
		if (known) return Promise.resolve(known);
		return this.#ctx.serial(
			path,
			async () => this.#files.get(path) ?? this.#load(path, file, run, null)
		);
	}

	/** Reads and validates a stage file into a new state; call it inside `serial`. */
	async #load(
		path: string,
		file: StageFile,
		run: RunKey,
		handle: FileHandle | null
	): Promise<FileState> {
		await refuseLinks(this.#ctx.root, path);
		const bytes = await this.#repair(path, (await readIfExists(path)) ?? Buffer.alloc(0), run);
		const state = await fileState(path, file, bytes, handle);
		this.#files.set(path, state);
		return state;
	}

	#repair(path: string, bytes: Buffer, run: RunKey): Promise<Buffer> {
		return repairTorn(path, bytes, this.#ctx.holdsLock(run), (m) => this.#ctx.notice(m));
	}

	async close(state: FileState): Promise<void> {
		const handle = state.handle;
		state.handle = null;
		await handle?.close().catch(() => undefined);
	}

	/** Closes a file's kept state and drops it: the next touch reads the file again. */
	async drop(path: string): Promise<void> {
		const state = this.#files.get(path);
		if (state) await this.close(state);
		this.#files.delete(path);
	}

	/** Drops what this process knows of a run's files (after letting queued writes finish). */
	async forget(run: RunKey): Promise<void> {
		for (const file of STAGE_FILE_NAMES) {
			const path = this.#ctx.pathOf(stageFilePath(run, file));
			if (!this.#files.has(path)) continue;
			await this.#ctx.serial(path, async () => undefined);
			await this.drop(path);
		}
	}
}

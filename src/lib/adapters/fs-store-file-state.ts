/**
 * What `FsStore` keeps of a stage file while it holds the run's lock, and how an append's
 * failure is said.
 */
import type { FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { CheckpointError } from '../core/errors';
import { visitJsonl } from '../core/jsonl';
import { STAGE_FILES, type AnyRecord, type StageFile } from '../core/records';
import { coded } from '../core/said';
import { recordHead, recordHeadSync, type RecordHead } from '../core/store/heads';
import { identitySaid, recordIdentity } from '../core/store/identity';
import { errorCode, syncDir } from './fs-store-io';
import { diskFullError, isDiskFull } from './fs-store-write';

/** One stage file as this process knows it, from its first read or append on. */
export interface FileState {
	file: StageFile;
	/**
	 * Each saved record's identity and head, in file order. Appended records keep no head (it
	 * would hold every response of the run in memory); `heads` reads the file again then.
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
	/**
	 * Why the file takes no more appends in this process: a failed write that could not be cut
	 * back, so the file may end in part of a line. Null while appends may go on.
	 */
	damaged: unknown;
}

export interface PendingAppend {
	line: Buffer;
	identity: string;
	resolve: () => void;
	reject: (error: unknown) => void;
}

/** A file's state from its bytes (whole lines, validated): identities, heads and size. */
export async function fileState(
	path: string,
	file: StageFile,
	bytes: Buffer,
	handle: FileHandle | null
): Promise<FileState> {
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
		flushQueued: false,
		damaged: null
	};
	return state;
}

/** The stage file's folder and the folder above it, so a new file and folder are on disk. */
export async function syncDirs(path: string): Promise<void> {
	await syncDir(dirname(path));
	await syncDir(dirname(dirname(path)));
}

/** Why an append was refused, and what to do. */
export function appendError(path: string, identity: string, e: unknown): CheckpointError {
	const said = { identity: [identitySaid(identity)] };
	if (isDiskFull(e)) return diskFullError(path, coded('disk_what_record', {}, said), e);
	const readOnly = ['EROFS', 'EACCES', 'EPERM'].includes(errorCode(e) ?? '');
	const code = readOnly ? 'append_failed_read_only' : 'append_failed';
	return new CheckpointError([coded(code, { file: path, detail: (e as Error).message }, said)]);
}

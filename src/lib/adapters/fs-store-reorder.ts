/**
 * `finalizeStageFile`: puts a stage file in dataset order by moving its lines as bytes (every
 * record stays byte-identical) into a temporary file that then replaces it.
 */
import { promises as fs } from 'node:fs';
import { dirname } from 'node:path';
import { visitJsonl } from '../core/jsonl';
import { stageFilePath, type RunKey } from '../core/layout';
import { STAGE_FILES, type AnyRecord, type StageFile } from '../core/records';
import { coded } from '../core/said';
import { orderByIdentity, recordIdentity } from '../core/store/identity';
import { SerialQueues, type StoreContext } from './fs-store-context';
import { readIfExists, syncDir, writeTemp } from './fs-store-io';
import type { StageFiles } from './fs-store-stage-files';
import { orDiskFull } from './fs-store-write';

/**
 * The reorders of this process, every store's, one after another: each holds its file's bytes,
 * and the runs of a plan (a store each) end together, so they would hold all their files at once.
 */
const inTurn = new SerialQueues();

/** `reorderStageFile` once every reorder of this process asked for before it has settled. */
export function reorderInTurn(...args: Parameters<typeof reorderStageFile>): Promise<void> {
	return inTurn.run('', () => reorderStageFile(...args));
}

export async function reorderStageFile(
	ctx: StoreContext,
	files: StageFiles,
	run: RunKey,
	file: StageFile,
	order: readonly string[]
): Promise<void> {
	const path = ctx.pathOf(stageFilePath(run, file));
	const locked = ctx.holdsLock(run);
	await ctx.serial(path, async () => {
		const state = files.known(path);
		// A file this session knows whole, already in order: nothing to read or write.
		if (locked && state && state.pending.length === 0 && inOrder(state.rows, order)) return;
		const bytes = await readIfExists(path);
		if (bytes === null) return;
		// Lines are moved as bytes, so every record stays byte-identical.
		const lines = splitLines(bytes);
		// A file this session wrote whole under the lock: its rows say each line's identity, so
		// it is not parsed again (nor held as text and records meanwhile).
		const known =
			locked &&
			state?.pending.length === 0 &&
			state.size === bytes.length &&
			state.rows.length === lines.length;
		const identities = known
			? state.rows.map((row) => row.identity)
			: identitiesOf(file, bytes, path);
		const rows = identities.map((identity, i) => ({
			bytes: lines[i],
			identity,
			row: state?.rows[i]
		}));
		const sorted = orderByIdentity(rows, (row) => row.identity, order, path);
		if (sorted.every((row, i) => row === rows[i])) return;
		const tmp = await writeTemp(path, Buffer.concat(sorted.map((row) => row.bytes))).catch((e) => {
			throw orDiskFull(e, path, coded('disk_what_ordered', {}));
		});
		if (state) await files.close(state);
		await fs.rename(tmp, path);
		await syncDir(dirname(path));
		// The known heads follow their lines (a kept handle would write to the replaced file).
		if (locked && state && state.rows.length === rows.length) {
			state.rows = sorted.map((row) => row.row!);
		} else {
			await files.drop(path);
		}
	});
}

/** Each line's record identity, the file read and checked whole. */
function identitiesOf(file: StageFile, bytes: Buffer, path: string): string[] {
	const identities: string[] = [];
	visitJsonl(bytes.toString('utf8'), STAGE_FILES[file].schema, path, (record) =>
		identities.push(recordIdentity(file, record as AnyRecord))
	);
	return identities;
}

/**
 * True when every row's identity is in `order` and they come in its order: the reorder would
 * leave the file as it is. (It would refuse a row outside `order`; so does this answer.)
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

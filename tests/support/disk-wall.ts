/**
 * A full disk, injected into Node's file handles: from the `nth` write to a file whose path
 * matches, the disk is full. That write is short (`partial` bytes land, no error, as `write(2)`
 * does when a disk fills mid-write) and every write after it, to any file, fails with ENOSPC,
 * until `makeRoom()`.
 */
import { promises as fs, readlinkSync } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { vi } from 'vitest';

export interface DiskWall {
	/** Whether the wall has been hit. */
	readonly hit: boolean;
	/** Paths of the writes refused or cut short, in order. */
	readonly refused: string[];
	/** Frees the disk: writes succeed again (the spies stay until `vi.restoreAllMocks`). */
	makeRoom(): void;
}

export interface WallOptions {
	/** Which files count towards `nth`. @default every file */
	match?: (path: string) => boolean;
	/** The write (1-based, among matching files) that meets the full disk. */
	nth: number;
	/** Bytes of that write that still land. @default half of them */
	partial?: (length: number) => number;
	/** After that write: `full` (every write fails) or `room` (only that write was short). @default 'full' */
	afterwards?: 'full' | 'room';
}

async function fileHandlePrototype(): Promise<FileHandle> {
	const handle = await fs.open(join(tmpdir(), '.'), 'r');
	await handle.close();
	return Object.getPrototypeOf(handle) as FileHandle;
}

/** The path a handle was opened with (Linux: its `/proc/self/fd` link). */
function pathOf(handle: FileHandle): string {
	try {
		return readlinkSync(`/proc/self/fd/${handle.fd}`);
	} catch {
		return '?';
	}
}

const enospc = (path: string) =>
	Object.assign(new Error(`ENOSPC: no space left on device, write`), { code: 'ENOSPC', path });

/** Installs the wall; undo it with `vi.restoreAllMocks()`. */
export async function diskWall(options: WallOptions): Promise<DiskWall> {
	const proto = await fileHandlePrototype();
	const write = proto.write as (...args: unknown[]) => Promise<{ bytesWritten: number }>;
	let seen = 0;
	let full = false;
	let hit = false;
	const refused: string[] = [];
	vi.spyOn(proto, 'write').mockImplementation(async function (
		this: FileHandle,
		...args: unknown[]
	) {
		const path = pathOf(this);
		const [buffer, offset = 0, length] = args as [Uint8Array, number?, number?];
		if (full) {
			refused.push(path);
			throw enospc(path);
		}
		if (typeof buffer === 'string' || !(options.match?.(path) ?? true) || ++seen !== options.nth) {
			return write.apply(this, args);
		}
		full = options.afterwards !== 'room';
		hit = true;
		refused.push(path);
		const size = length ?? buffer.byteLength - offset;
		const partial = options.partial?.(size) ?? Math.floor(size / 2);
		if (partial === 0) throw enospc(path);
		return write.call(this, buffer, offset, partial, args[3] ?? null);
	} as never);
	return {
		get hit() {
			return hit;
		},
		refused,
		makeRoom() {
			full = false;
			seen = -Infinity;
		}
	};
}

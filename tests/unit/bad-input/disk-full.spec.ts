/**
 * A disk that fills mid-run, for real: a small tmpfs mounted as the CLI's --output-root, filled
 * up to a little room before `run --simulated` starts, so the run meets a full disk at a point
 * set by that room (the manifest, a stage's record, the call log, a seal…). The run stops saying
 * the disk is full and where; once room is made, the same command resumes and ends with exactly
 * the files of a run that never hit the wall. Needs root for `mount` (here and in CI): a test
 * that cannot mount fails saying so.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, statfs, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCallLog } from '../../../src/lib/core/calls/log';
import { runArgs, runCliInProcess } from '../../cli/run-cli';
import { DATASET, filesUnder, stageFiles } from '../faults/harness';

const MIB = 1024 * 1024;
const KIB = 1024;

let tmp: string;
let clean: Map<string, string>;

const command = (root: string) =>
	runArgs('run', { dataset: DATASET, root, simulated: true }, '--concurrency', '1');

beforeAll(async () => {
	tmp = await mkdtemp(join(tmpdir(), 'lexpilot-disk-full-'));
	const r = await runCliInProcess(command(join(tmp, 'clean')));
	expect(r.code, r.stderr).toBe(0);
	clean = await stageFiles(join(tmp, 'clean'));
	expect(clean.size).toBe(10);
});
afterAll(() => rm(tmp, { recursive: true, force: true }));

/** Mounts a tmpfs of `size` bytes at `dir`; throws, saying why, when that is not permitted. */
function mountTmpfs(dir: string, size: number): void {
	try {
		execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { stdio: 'pipe' });
	} catch (e) {
		const why = (e as { stderr?: Buffer }).stderr?.toString().trim() || (e as Error).message;
		throw new Error(
			`this test mounts a small tmpfs to fill a real disk and needs root (or CAP_SYS_ADMIN): ` +
				`mount -t tmpfs at ${dir} failed: ${why}`,
			{ cause: e }
		);
	}
}

/** The run's files other than its stage files, minus the ones a second run writes anew. */
async function leftovers(root: string): Promise<string[]> {
	const names = await readdir(root, { recursive: true });
	return names.filter((n) => /\.tmp-|\.torn|\.lock|\.stale-/.test(n));
}

// The room left on the disk when the run starts, each meeting the wall at another place (with
// today's record sizes: the manifest; a record of a later stage, gen's files saved; gen's
// interactions of the first, second and third case; an LJP interaction record; with 160 KiB only
// the call log's last lines do not fit, and the run ends with a warning).
const ROOM = [8, 40, 100, 120, 140, 148, 160].map((k) => k * KIB);

describe('a disk that fills mid-run (a real tmpfs as --output-root)', () => {
	const places: string[] = [];

	it.each(ROOM.map((room) => [`${room / KIB} KiB of room`, room] as const))(
		'%s: says the disk is full and where; after room is made the same command ends with the clean files',
		async (_title, room) => {
			const mount = join(tmp, `mnt-${room}`);
			await mkdir(mount);
			mountTmpfs(mount, MIB);
			try {
				const root = join(mount, 'out');
				const filler = join(mount, 'filler');
				await writeFile(filler, Buffer.alloc(MIB - room));
				const { bavail, bsize } = await statfs(mount);
				expect(bavail * bsize).toBe(room);

				const full = await runCliInProcess(command(root));
				// A record that does not fit stops the run; a call-log line is only warned about.
				const said = full.stderr.match(
					/^(error|warning): (.*?)(\/\S+): the disk is full \(ENOSPC\)/m
				);
				expect(said, full.stderr).not.toBeNull();
				const [, kind, before, path] = said!;
				expect(path.startsWith(`${root}/`), path).toBe(true);
				if (kind === 'error') {
					expect(full.code).toBe(2);
					expect(full.stderr).toMatch(/Free space on that disk, then run the same command again/);
				} else {
					expect(full.code, full.stderr).toBe(0);
					expect(path.endsWith('/calls.jsonl')).toBe(true);
				}
				places.push(`${before}${path.slice(root.length + 1)}`);

				await rm(filler);
				const resumed = await runCliInProcess(command(root));
				expect(resumed.code, resumed.stderr).toBe(0);
				expect(await stageFiles(root)).toEqual(clean);
				expect(await leftovers(root)).toEqual([]);
				// The call log holds whole lines only (both runs' calls).
				const calls = [...(await filesUnder(root))].find(([p]) => p.endsWith('calls.jsonl'))!;
				expect(parseCallLog(calls[1], calls[0]).length).toBeGreaterThan(0);
			} finally {
				execFileSync('umount', [mount], { stdio: 'pipe' });
			}
		}
	);

	it('met the full disk at three places at least', () => {
		expect(places).toHaveLength(ROOM.length);
		expect(new Set(places).size, places.join('\n')).toBeGreaterThanOrEqual(3);
	});
});

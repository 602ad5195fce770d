/**
 * One writer per run in the browser: a Web Lock per run (it spans tabs), or an in-process lock
 * where the Web Locks API is missing (it guards one page but not a second tab).
 */
import { RunLockedError } from '../core/errors';
import type { RunKey } from '../core/layout';
import { parseRunKey } from '../core/names';
import { coded } from '../core/said';
import { compareRunKeys, runLabel } from '../core/store/checks';

/** Locks held in this JavaScript realm, when the Web Locks API is missing. */
const localLocks = new Set<string>();

/**
 * The runs whose lock name starts with `prefix` and is held now, in any tab of this browser (in
 * this page only, where Web Locks are missing), sorted. A tab that cannot ask says none.
 */
export async function heldRuns(locks: LockManager | null, prefix: string): Promise<RunKey[]> {
	let names: string[];
	if (locks === null) names = [...localLocks];
	else {
		try {
			names = ((await locks.query()).held ?? []).map((lock) => lock.name ?? '');
		} catch {
			names = [];
		}
	}
	const runs: RunKey[] = [];
	for (const name of names) {
		if (!name.startsWith(prefix)) continue;
		const run = parseRunKey(name.slice(prefix.length));
		if (run) runs.push(run);
	}
	return runs.sort(compareRunKeys);
}

/** Takes the lock `name` of `run` now or refuses with a `RunLockedError`; resolves to its release. */
export async function lockRun(
	locks: LockManager | null,
	name: string,
	run: RunKey
): Promise<() => Promise<void>> {
	const refused = () => new RunLockedError([coded('run_locked_other_tab', { run: runLabel(run) })]);
	if (locks === null) {
		if (localLocks.has(name)) throw refused();
		localLocks.add(name);
		let held = true;
		return async () => {
			if (held) localLocks.delete(name);
			held = false;
		};
	}
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

/** A store whose lock on one run is already held by the caller. */
import { forwarding } from '../forward';
import type { RunKey } from '../layout';
import type { CheckpointStore } from './types';

/**
 * `store` as the holder of `run`'s lock sees it: `lock(run)` resolves at once with a release that
 * does nothing (the holder releases the lock it took; Web Locks are not re-entrant), every other
 * run is locked as usual, and every other member (`appendCall`, `readHeads`, seals, whatever the
 * store adds later) is the store's own. The Run page takes the lock before the engine runs, so a
 * second tab is refused before anything is written, then hands the engine this view.
 */
export function withHeldLock<S extends CheckpointStore>(store: S, run: RunKey): S {
	return forwarding(store, {
		lock: (key: RunKey) =>
			key.runId === run.runId && key.modelDir === run.modelDir
				? Promise.resolve(async () => {})
				: store.lock(key)
	} as Partial<S>);
}

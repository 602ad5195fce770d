/** Where call-log lines go: a small interface of its own, beside `CheckpointStore`. */
import type { RunKey } from '../layout';
import type { CallLogEntry } from './schema';

/**
 * Appends and reads a run's call log. `MemoryStore`, `FsStore` and `IdbStore` implement it next
 * to `CheckpointStore`; the engine writes through it when given one (by default: the store, when
 * it is one). A log, not a checkpoint: lines are appended as calls finish, never reordered or
 * replaced, and a run is resumed and scored without reading them.
 */
export interface CallLog {
	/** Appends one line. `line` comes from `callLogLine` (keys redacted, fields bounded). */
	appendCall(run: RunKey, line: string): Promise<void>;
	/** Every line of the run's log, validated, in written order; [] when there is none. */
	readCalls(run: RunKey): Promise<CallLogEntry[]>;
}

/** True when `store` also keeps a call log. */
export function isCallLog(store: unknown): store is CallLog {
	const s = store as Partial<CallLog> | null;
	return typeof s?.appendCall === 'function' && typeof s?.readCalls === 'function';
}

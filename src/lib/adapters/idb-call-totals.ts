/**
 * A run's call-log totals (`callTotals`: calls, tokens per role and stage, wall time) kept with
 * its manifest row, so the Results page need not read and parse a whole call log (tens of MB for
 * a full run) each time it opens. An import writes them beside the log it writes; otherwise the
 * first read computes them from the log and saves them. They hold for as many lines as they were
 * computed from: the log only grows (`appendCall`), and a run written again gets a new manifest
 * row, so totals whose line count is not the log's are computed again.
 */
import { parseCallLog } from '../core/calls/log';
import { callTotals, type CallTotals } from '../core/calls/totals';
import type { RunKey } from '../core/layout';
import { runRange } from './idb-ranges';
import type { IDBPObjectStore } from 'idb';
import type { Db, WorkbenchDb } from './idb-schema';
import { writeTx } from './idb-write';

/** Totals of the first `lines` lines of a run's call log. */
export interface SavedCallTotals {
	lines: number;
	totals: CallTotals;
}

/**
 * The totals of the run's call log: the saved ones while they cover every line, else computed
 * from the log (a line that cannot be read throws as `parseCallLog` does, naming `fileLabel`)
 * and saved for the next time.
 */
export async function readCallTotals(db: Db, run: RunKey, fileLabel: string): Promise<CallTotals> {
	const key: [string, string] = [run.runId, run.modelDir];
	const tx = db.transaction(['manifests', 'calls'], 'readonly');
	const [row, lines] = await Promise.all([
		tx.objectStore('manifests').get(key),
		logLength(tx.objectStore('calls'), run)
	]);
	if (row?.callTotals?.lines === lines) return row.callTotals.totals;
	const rows = await db.getAll('calls', runRange(run));
	const totals = callTotals(parseCallLog(rows.map((r) => `${r.json}\n`).join(''), fileLabel));
	const read = rows.length === 0 ? 0 : rows[rows.length - 1].seq + 1;
	await saveCallTotals(db, run, { lines: read, totals }).catch(() => {
		// Only a cache: a full disk or a closed connection leaves the totals to be computed again.
	});
	return totals;
}

/**
 * How many lines the run's log holds: the last one's seq + 1, as lines are numbered 0…n−1
 * (`appendCall`, an import). Its key only: counting the rows would cost Chromium a scan of the
 * whole log (seconds for twenty runs).
 */
async function logLength(
	calls: IDBPObjectStore<WorkbenchDb, ('manifests' | 'calls')[], 'calls', IDBTransactionMode>,
	run: RunKey
): Promise<number> {
	const last = await calls.openKeyCursor(runRange(run), 'prev');
	return last ? last.primaryKey[2] + 1 : 0;
}

/** Saves `saved` with the run unless its log changed meanwhile (or the run is gone). */
async function saveCallTotals(db: Db, run: RunKey, saved: SavedCallTotals): Promise<void> {
	await writeTx(db, ['manifests', 'calls'], 'browser storage', async (tx) => {
		const manifests = tx.objectStore('manifests');
		const row = await manifests.get([run.runId, run.modelDir]);
		const count = await logLength(tx.objectStore('calls'), run);
		if (!row || count !== saved.lines || row.callTotals?.lines === count) return;
		await manifests.put({ ...row, callTotals: saved });
	});
}

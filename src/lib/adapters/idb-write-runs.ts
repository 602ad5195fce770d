/** Whole runs written into the browser store at once (an import): all of them, or nothing. */
import type { CallTotals } from '../core/calls/totals';
import { CheckpointError } from '../core/errors';
import type { RunKey } from '../core/layout';
import type { Manifest } from '../core/records';
import { coded } from '../core/said';
import { callCaseKey, runRange } from './idb-ranges';
import type { RecordRow, ReviewRow } from './idb-rows';
import type { Db } from './idb-schema';
import { writeTx } from './idb-write';

/**
 * A whole run written at once (an import): its manifest, its record rows (each with its JSON
 * line, in file order) and the lines of its call log.
 */
export interface RunRows {
	run: RunKey;
	manifest: Manifest;
	records: RecordRow[];
	calls: readonly string[];
	/** The totals of those lines (`callTotals`), kept with the run so a report need not read them. */
	callTotals?: CallTotals;
	/** Review rows to put beside the run (merged, never deleted, by `replace`). */
	reviews?: readonly ReviewRow[];
}

/**
 * Writes whole runs in ONE transaction: every manifest, record and call-log line, or nothing.
 * With `replace`, a stored run of the same key is deleted in that transaction first; without
 * it, a run stored meanwhile makes the write fail (a `CheckpointError` saying so).
 */
export async function writeRunRows(
	db: Db,
	runs: readonly RunRows[],
	replace: boolean
): Promise<void> {
	const full = coded('storage_full_import', {});
	const stores = [
		'manifests',
		'records',
		'calls',
		'reviews',
		'batch_states',
		'batch_answers'
	] as const;
	await writeTx(
		db,
		[...stores],
		'browser storage',
		async (tx) => {
			const manifests = tx.objectStore('manifests');
			const records = tx.objectStore('records');
			const calls = tx.objectStore('calls');
			for (const entry of runs) {
				const { runId, modelDir } = entry.run;
				// Call-log rows live only with their run; none can be left without one, but be sure.
				await calls.delete(runRange(entry.run));
				// A replaced run's rounds were of the run it replaces; its reviews are merged, never deleted.
				if (replace) {
					for (const name of ['manifests', 'records', 'batch_states', 'batch_answers'] as const) {
						await tx.objectStore(name).delete(runRange(entry.run));
					}
				}
				const callTotals = entry.callTotals && {
					lines: entry.calls.length,
					totals: entry.callTotals
				};
				await manifests.add({
					runId,
					modelDir,
					manifest: entry.manifest,
					...(callTotals && { callTotals })
				});
				for (const row of entry.records) await records.add(row);
				for (const [seq, json] of entry.calls.entries()) {
					await calls.add({ runId, modelDir, seq, case_key: callCaseKey(json), json });
				}
				for (const row of entry.reviews ?? []) await tx.objectStore('reviews').put(row);
			}
		},
		full
	).catch((e) => {
		if ((e as Error | null)?.name === 'ConstraintError') {
			throw new CheckpointError([coded('bundle_run_saved_during_import', {})]);
		}
		throw e;
	});
}

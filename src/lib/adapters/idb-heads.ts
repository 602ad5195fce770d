/**
 * Record heads in the browser store: read from their own rows (about a third of the bytes of
 * the records), or built from the records and saved where they are missing or out of step.
 */
import { stageFilePath, type RunKey } from '../core/layout';
import type { StageFile } from '../core/record-names';
import { checkHead, recordHead, type RecordHead } from '../core/store/heads';
import { parseRecordRows } from './idb-parse';
import { fileRange } from './idb-ranges';
import type { Db } from './idb-schema';
import { storedLabel, writeTx } from './idb-write';

/**
 * Reads the head rows, not the records: a1, interaction and four more files repeat whole
 * histories. Heads missing or out of step with the records (the run was imported, or saved
 * before heads existed) are built from the records and saved.
 */
export async function readHeadRows(db: Db, run: RunKey, file: StageFile): Promise<RecordHead[]> {
	const label = storedLabel(stageFilePath(run, file));
	const tx = db.transaction(['manifests', 'heads', 'records'], 'readonly');
	const [manifestRow, rows, last] = await Promise.all([
		tx.objectStore('manifests').get([run.runId, run.modelDir]),
		tx.objectStore('heads').getAll(fileRange(run, file)),
		// The last record's key only: counting the rows would cost Chromium a third of the scan.
		tx.objectStore('records').openKeyCursor(fileRange(run, file), 'prev')
	]);
	// Seqs run 0…n−1 in every file this store or an import writes; rows appended behind the
	// store's back leave the heads short.
	const inStep = rows.length === (last ? (last.primaryKey[3] as number) + 1 : 0);
	if (!manifestRow?.headed?.includes(file) || !inStep) return rebuildHeads(db, run, file);
	return rows.map((row, i) => checkHead(file, row.head, `${label}, line ${i + 1}`));
}

/** Heads made from the records, saved for the next resume when the file did not change meanwhile. */
async function rebuildHeads(db: Db, run: RunKey, file: StageFile): Promise<RecordHead[]> {
	const label = storedLabel(stageFilePath(run, file));
	const key: [string, string, string] = [run.runId, run.modelDir, file];
	const rows = await db.getAllFromIndex('records', 'by_file', key);
	const records = parseRecordRows(run, file, rows);
	const heads = await Promise.all(records.map((record) => recordHead(file, record)));
	await writeTx(db, ['manifests', 'heads', 'records'], label, async (tx) => {
		const manifests = tx.objectStore('manifests');
		const manifestRow = await manifests.get([run.runId, run.modelDir]);
		const now = await tx.objectStore('records').index('by_file').getAllKeys(key);
		const unchanged = now.length === rows.length && now.every((k, i) => k[3] === rows[i].seq);
		// Without a manifest there is nothing to mark the heads as complete in.
		if (!manifestRow || !unchanged) return;
		const store = tx.objectStore('heads');
		await store.delete(fileRange(run, file));
		await Promise.all(heads.map((head, i) => store.add({ ...run, file, seq: rows[i].seq, head })));
		const headed = [...new Set([...(manifestRow.headed ?? []), file])];
		await manifests.put({ ...manifestRow, headed });
	});
	return heads;
}

/**
 * Bundles into IndexedDB, all at once: the runs of a validated bundle (`readBundle`) are written
 * in one transaction, every manifest and record or nothing, as their JSON lines, so a later
 * export gives back the very bytes imported.
 */
import { callTotals } from '../core/calls/totals';
import { CheckpointError } from '../core/errors';
import type { RunKey } from '../core/layout';
import type { StageFile } from '../core/record-names';
import { runLabel } from '../core/store/checks';
import { reviewRowsToImport } from './idb-reviews';
import { recordRow, type RecordRow } from './idb-rows';
import type { IdbStore } from './idb-store';
import type { BundleRun } from './zip-bundle';

/** Options of {@link importRuns}. */
export interface ImportOptions {
	/**
	 * Replace runs that are stored already (same run id and model folder): their manifest and
	 * every record are deleted in the same transaction that writes the bundle's. Only after the
	 * user confirmed it explicitly.
	 * @default false
	 */
	replace?: boolean;
}

/** Runs of a bundle that are in storage already. */
export async function findConflicts(
	store: IdbStore,
	runs: readonly BundleRun[]
): Promise<RunKey[]> {
	const found: RunKey[] = [];
	for (const { run } of runs) {
		if (await store.hasRun(run)) found.push(run);
	}
	return found;
}

/** Refused: runs with these keys are stored already and `replace` was not given. */
export class ImportConflictError extends CheckpointError {
	override name = 'ImportConflictError';
	constructor(readonly conflicts: RunKey[]) {
		super(
			`${conflicts.map(runLabel).join(', ')} ${conflicts.length === 1 ? 'is' : 'are'} in this browser already. ` +
				'Nothing was imported and nothing stored was changed. Delete the stored run first, or import ' +
				'into another browser profile, or confirm that the stored run is to be replaced.'
		);
	}
}

function rowsOf(entry: BundleRun): RecordRow[] {
	const files = Object.entries(entry.files) as [StageFile, BundleRun['files'][StageFile]][];
	return files.flatMap(([file, content]) =>
		(content?.records ?? []).map((record, seq) =>
			recordRow(entry.run, file, seq, record, content!.lines[seq])
		)
	);
}

/**
 * Writes validated runs into IndexedDB in ONE transaction: every manifest and record, or nothing.
 * A run stored already is refused (`ImportConflictError`) unless `replace`; a run being written
 * in another tab is refused (`RunLockedError`).
 */
export async function importRuns(
	store: IdbStore,
	runs: readonly BundleRun[],
	options: ImportOptions = {}
): Promise<void> {
	const conflicts = await findConflicts(store, runs);
	if (conflicts.length && !options.replace) throw new ImportConflictError(conflicts);
	const releases: (() => Promise<void>)[] = [];
	try {
		for (const { run } of runs) releases.push(await store.lock(run));
		// Merged with the reviews kept here before anything is written: a conflict refuses it all.
		const reviews = await Promise.all(
			runs.map((entry) => reviewRowsToImport(store, entry.run, entry.reviews ?? []))
		);
		await store.writeRuns(
			runs.map((entry, i) => ({
				run: entry.run,
				manifest: entry.manifest,
				records: rowsOf(entry),
				calls: entry.calls?.lines ?? [],
				// The entries are parsed already: their totals cost nothing now, a whole log later.
				callTotals: entry.calls && callTotals(entry.calls.entries),
				reviews: reviews[i]
			})),
			options.replace ?? false
		);
	} finally {
		for (const release of releases) await release();
	}
}

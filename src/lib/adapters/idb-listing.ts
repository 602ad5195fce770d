/** The runs kept in IndexedDB as run lists show them: each manifest with its record counts. */
import { STAGE_FILE_NAMES, type StageFile } from '../core/record-names';
import type { StoredRun } from '../core/store/types';
import type { IdbStore } from './idb-store';

/** Every run with a manifest, sorted by run id then model folder, with its record counts. */
export async function listStoredRuns(store: IdbStore): Promise<StoredRun[]> {
	return Promise.all(
		(await store.savedManifests()).map(async ({ run, manifest }) => {
			const counts = Object.fromEntries(
				await Promise.all(
					STAGE_FILE_NAMES.map(async (file) => [file, await store.countRecords(run, file)] as const)
				)
			) as Record<StageFile, number>;
			return { run, manifest, counts };
		})
	);
}

/**
 * What the Results page reads: the runs of this browser's storage (and which of them are being
 * written) or of a bundle opened from a link, and the report over the shown ones (the CLI's
 * `computeReport`, in partial mode so a running evaluation shows its figures so far).
 */
import { listStoredRuns } from '$lib/adapters/idb-listing';
import type { IdbStore } from '$lib/adapters/idb-store';
import type { BundleView } from '$lib/adapters/bundle-view';
import type { RunKey } from '$lib/core/layout';
import { reportRunKey } from '$lib/core/names';
import type { LoadedRun, ResultsReport } from '$lib/core/results';
import type { LayoutSource } from '$lib/core/results/source';
import type { StoredRun } from '$lib/core/store/types';
import { layoutSourceModule, resultsModule } from './lazy-store';

/** The runs to show: from the open bundle, or from browser storage with the ones being written. */
export async function readRuns(
	store: IdbStore | null,
	bundle: BundleView | null
): Promise<{ runs: StoredRun[]; writing: RunKey[] }> {
	const runs = store ? await listStoredRuns(store) : (bundle?.runs ?? []);
	// Asked after the records are read: a writer takes its lock before writing anything.
	const writing = store ? await store.heldRuns() : [];
	return { runs, writing };
}

/** The shown runs' files: from the open bundle, or from browser storage. */
async function layoutOf(
	store: IdbStore | null,
	bundle: BundleView | null,
	runs: RunKey[]
): Promise<LayoutSource> {
	if (!store) return bundle?.layout(runs) ?? (await resultsModule()).memorySource({});
	return (await layoutSourceModule()).idbLayoutSource(store, { runs });
}

/** The report over `shown` (null with none), and each shown run as loaded, by key. */
export async function readReport(
	store: IdbStore | null,
	bundle: BundleView | null,
	shown: RunKey[]
): Promise<{ report: ResultsReport | null; loaded: Map<string, LoadedRun> }> {
	const loaded = new Map<string, LoadedRun>();
	const report =
		shown.length === 0
			? null
			: await (
					await resultsModule()
				).computeReport(await layoutOf(store, bundle, shown), {
					partial: true,
					onRun: (run, manifest, table) => loaded.set(reportRunKey(run), { run, manifest, table })
				});
	return { report, loaded };
}

/**
 * The Bundles page: export stored runs as a zip of the canonical layout (or any one file), and
 * import a zip or a folder (e.g. the CLI's output root) all-or-nothing.
 */
import { downloadBytes, downloadText } from '$lib/adapters/download';
import { listStoredRuns } from '$lib/adapters/idb-listing';
import type { IdbStore } from '$lib/adapters/idb-store';
import type { StorageInfo } from '$lib/adapters/storage-info';
import type { StoredRun } from '$lib/core/store/types';
import { runLabel } from '$lib/core/layout';
import type { RunKey } from '$lib/core/layout';
import { formatBytes } from '$lib/core/text';
import { storageUse } from './storage-use.svelte';
import type { Bundle, BundleEntry, BundleError } from '$lib/adapters/zip-bundle';
import {
	idbImportModule,
	layoutSourceModule,
	openSharedIdbStore,
	zipBundleModule
} from './lazy-store';
import { m } from '$lib/paraglide/messages';
import { saidOf } from '$lib/core/errors';
import { coreText } from './core-text.svelte';
import { exportFileName } from '$lib/view/export-name';
import { runKey } from '$lib/core/names';

/**
 * What the last import or export came to, for the page to show. `title` and `lines` are in the
 * interface language, built anew on each read so that they follow a language switch (the bundle
 * reader's problems through `$lib/view/core-text`; one without a code stays in English).
 */
export interface Outcome {
	readonly kind: 'ok' | 'error';
	/** True when runs were imported: the page links to their results. */
	readonly imported: boolean;
	readonly title: string;
	/** Every problem or every imported run, one line each. */
	readonly lines: string[];
}

function outcome(
	kind: Outcome['kind'],
	title: () => string,
	lines: () => string[] = () => [],
	imported = false
): Outcome {
	return {
		kind,
		imported,
		get title() {
			return title();
		},
		get lines() {
			return lines();
		}
	};
}

/** What a failed action says: `title`, then the error's message as it came. */
function failed(title: () => string, e: unknown): Outcome {
	const message = (e as Error).message;
	return outcome('error', title, () => [message]);
}

/** A validated bundle that holds runs stored already, waiting for the user's decision. */
export interface PendingImport {
	bundle: Bundle;
	conflicts: RunKey[];
}

function describeRuns(bundle: Bundle): string[] {
	return bundle.runs.map((r) => {
		const records = Object.values(r.files).reduce((n, f) => n + (f?.records.length ?? 0), 0);
		const files = Object.keys(r.files).length;
		const what = {
			run: r.run.runId,
			model: r.manifest.models.evaluated,
			cases: r.manifest.dataset.selected_case_numbers.length,
			files,
			records
		};
		return (
			(files === 1 ? m.bundles_run_summary_one_file(what) : m.bundles_run_summary(what)) +
			(r.calls
				? m.bundles_run_calls({ count: r.calls.entries.length })
				: m.bundles_run_no_calls()) +
			(r.manifest.simulated ? m.bundles_run_simulated() : '')
		);
	});
}

export class BundlesState {
	status = $state<'idle' | 'loading' | 'ready' | 'error'>('idle');
	runs = $state.raw<StoredRun[]>([]);
	/** Keys of the runs ticked for export. */
	selected = $state.raw<readonly string[]>([]);
	busy = $state<'import' | 'export' | 'delete' | null>(null);
	outcome = $state.raw<Outcome | null>(null);
	pending = $state.raw<PendingImport | null>(null);
	storage = $state.raw<StorageInfo | null>(null);
	error = $state<string | null>(null);

	#openStore: () => Promise<IdbStore>;

	constructor(openStore: () => Promise<IdbStore> = openSharedIdbStore) {
		this.#openStore = openStore;
	}

	async load(): Promise<void> {
		try {
			const runs = await listStoredRuns(await this.#openStore());
			const keys = runs.map((r) => runKey(r.run));
			this.selected = this.selected.filter((k) => keys.includes(k));
			this.runs = runs;
			this.status = 'ready';
			this.error = null;
			this.storage = await storageUse.refresh();
		} catch (e) {
			this.error = (e as Error).message;
			this.status = 'error';
		}
	}

	toggle(key: string, on: boolean): void {
		const rest = this.selected.filter((k) => k !== key);
		this.selected = on ? [...rest, key] : rest;
	}

	selectAll(on: boolean): void {
		this.selected = on ? this.runs.map((r) => runKey(r.run)) : [];
	}

	/** Downloads the selected runs as one zip in the canonical layout. */
	async exportSelected(): Promise<void> {
		const chosen = this.runs.filter((r) => this.selected.includes(runKey(r.run)));
		if (chosen.length === 0) return;
		this.busy = 'export';
		this.outcome = null;
		try {
			const runs = chosen.map((r) => r.run);
			const [{ readRunsFiles }, { zipBundle }] = await Promise.all([
				layoutSourceModule(),
				zipBundleModule()
			]);
			const files = await readRunsFiles(await this.#openStore(), runs);
			const zip = await zipBundle(files);
			const name = exportFileName(runs, Date.now());
			downloadBytes(zip, name, 'application/zip');
			const count = chosen.length;
			this.outcome = outcome(
				'ok',
				() =>
					count === 1 ? m.bundles_exported_one({ name }) : m.bundles_exported({ count, name }),
				() => [m.bundles_exported_size({ files: files.size, size: formatBytes(zip.length) })]
			);
		} catch (e) {
			this.outcome = failed(() => m.bundles_export_failed(), e);
		} finally {
			this.busy = null;
		}
	}

	/** Downloads one file of a run, exactly as it would be in the zip. */
	async downloadFile(run: RunKey, path: string): Promise<void> {
		const { readRunFiles } = await layoutSourceModule();
		const files = await readRunFiles(await this.#openStore(), run);
		const text = files.get(path);
		if (text === undefined) return;
		const name = path.split('/').pop()!;
		downloadText(text, name, name.endsWith('.json') ? 'application/json' : 'application/x-ndjson');
	}

	/** The files of a stored run (path → size in bytes), for the single-file downloads. */
	async filesOf(run: RunKey): Promise<{ path: string; bytes: number }[]> {
		const { runFileSizes } = await layoutSourceModule();
		return runFileSizes(await this.#openStore(), run);
	}

	/** Imports a zip file. */
	async importZip(file: File): Promise<void> {
		await this.#import(file.name, async () => {
			const { BundleError, DEFAULT_BUNDLE_LIMITS, readZipBundle } = await zipBundleModule();
			if (file.size > DEFAULT_BUNDLE_LIMITS.maxTotalBytes) {
				throw new BundleError(
					[
						m.bundles_too_big_file({
							size: formatBytes(file.size),
							max: formatBytes(DEFAULT_BUNDLE_LIMITS.maxTotalBytes)
						})
					],
					file.name
				);
			}
			if (!/\.zip$/i.test(file.name)) {
				throw new BundleError([m.bundles_not_zip()], file.name);
			}
			return readZipBundle(new Uint8Array(await file.arrayBuffer()), file.name);
		});
	}

	/** Imports the files of a chosen folder (their paths relative to the folder's parent). */
	async importFolder(files: readonly File[]): Promise<void> {
		const name = files[0]?.webkitRelativePath.split('/')[0] || m.bundles_the_folder();
		await this.#import(name, async () => {
			const { BundleError, DEFAULT_BUNDLE_LIMITS, readBundle } = await zipBundleModule();
			const total = files.reduce((n, f) => n + f.size, 0);
			if (total > DEFAULT_BUNDLE_LIMITS.maxTotalBytes) {
				throw new BundleError(
					[
						m.bundles_too_big_folder({
							size: formatBytes(total),
							max: formatBytes(DEFAULT_BUNDLE_LIMITS.maxTotalBytes)
						})
					],
					name
				);
			}
			const entries: BundleEntry[] = [];
			for (const f of files) {
				entries.push({
					path: f.webkitRelativePath || f.name,
					bytes: new Uint8Array(await f.arrayBuffer())
				});
			}
			return readBundle(entries, name);
		});
	}

	/** Reads a bundle named `name` (the file or folder, as the reader names it) and saves it. */
	async #import(name: string, read: () => Promise<Bundle>): Promise<void> {
		this.busy = 'import';
		this.outcome = null;
		this.pending = null;
		let bundleError: typeof BundleError | null = null;
		try {
			bundleError = (await zipBundleModule()).BundleError;
			const bundle = await read();
			const { findConflicts } = await idbImportModule();
			const conflicts = await findConflicts(await this.#openStore(), bundle.runs);
			if (conflicts.length) {
				this.pending = { bundle, conflicts };
				const count = conflicts.length;
				this.outcome = outcome(
					'error',
					() =>
						count === 1
							? m.bundles_conflicts_one({ name: bundle.name })
							: m.bundles_conflicts({ name: bundle.name, count }),
					() => [
						...conflicts.map((r) => m.bundles_stored_already({ run: runLabel(r) })),
						m.bundles_nothing_changed()
					]
				);
				return;
			}
			await this.#write(bundle, false);
		} catch (e) {
			if (bundleError && e instanceof bundleError) {
				const { problems, problemsSaid, total } = e;
				this.outcome = outcome(
					'error',
					() =>
						total === 1
							? m.bundles_cannot_import_one({ name })
							: m.bundles_cannot_import({ name, count: total }),
					() => problems.map((p, i) => coreText(p, problemsSaid[i]))
				);
			} else {
				const message = (e as Error).message;
				const said = saidOf(e);
				this.outcome = outcome(
					'error',
					() => m.bundles_nothing_imported(),
					() => [coreText(message, said)]
				);
			}
		} finally {
			this.busy = null;
		}
	}

	async #write(bundle: Bundle, replace: boolean): Promise<void> {
		const { importRuns } = await idbImportModule();
		await importRuns(await this.#openStore(), bundle.runs, { replace });
		this.pending = null;
		const what = { count: bundle.runs.length, name: bundle.name };
		const ignored = bundle.ignored;
		const list = `${ignored.slice(0, 3).join(', ')}${ignored.length > 3 ? ', …' : ''}`;
		this.outcome = outcome(
			'ok',
			() =>
				replace
					? what.count === 1
						? m.bundles_imported_replacing_one(what)
						: m.bundles_imported_replacing(what)
					: what.count === 1
						? m.bundles_imported_one(what)
						: m.bundles_imported(what),
			() => [
				...describeRuns(bundle),
				...(ignored.length === 0
					? []
					: [
							ignored.length === 1
								? m.bundles_skipped_one({ list })
								: m.bundles_skipped({ count: ignored.length, list })
						])
			],
			true
		);
		await this.load();
	}

	/** After the user confirmed: replaces the conflicting stored runs with the bundle's. */
	async confirmReplace(): Promise<void> {
		const pending = this.pending;
		if (!pending) return;
		this.busy = 'import';
		try {
			await this.#write(pending.bundle, true);
		} catch (e) {
			this.outcome = failed(() => m.bundles_nothing_imported(), e);
		} finally {
			this.busy = null;
		}
	}

	cancelPending(): void {
		this.pending = null;
	}

	/** Deletes a stored run with all its records (after the user confirmed). */
	async deleteRun(run: RunKey): Promise<void> {
		this.busy = 'delete';
		try {
			await (await this.#openStore()).deleteRun(run);
			this.outcome = outcome('ok', () => m.bundles_deleted({ run: runLabel(run) }));
			await this.load();
		} catch (e) {
			this.outcome = failed(() => m.bundles_not_deleted(), e);
		} finally {
			this.busy = null;
		}
	}
}

export const bundlesState = new BundlesState();

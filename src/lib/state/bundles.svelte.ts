/**
 * The Bundles page: export stored runs as a zip of the canonical layout (or any one file), and
 * import a zip or a folder (e.g. the CLI's output root) all-or-nothing.
 */
import { downloadBytes, downloadText } from '$lib/adapters/download';
import { findConflicts, importRuns } from '$lib/adapters/idb-import';
import { readRunFiles, readRunsFiles, runFileSizes } from '$lib/adapters/idb-layout-source';
import { listStoredRuns } from '$lib/adapters/idb-listing';
import { sharedIdbStore, type IdbStore } from '$lib/adapters/idb-store';
import type { StoredRun } from '$lib/core/store/types';
import { estimateStorage, type StorageInfo } from '$lib/adapters/storage-info';
import { runLabel } from '$lib/core/store/checks';
import type { RunKey } from '$lib/core/layout';
import { formatBytes } from '$lib/core/text';
import {
	BundleError,
	DEFAULT_BUNDLE_LIMITS,
	readBundle,
	readZipBundle,
	zipBundle,
	type Bundle,
	type BundleEntry
} from '$lib/adapters/zip-bundle';
import { exportFileName } from '$lib/view/export-name';
import { keyOf } from './results.svelte';

/** What the last import or export came to, for the page to show. */
export interface Outcome {
	kind: 'ok' | 'error';
	title: string;
	/** Every problem or every imported run, one line each. */
	lines: string[];
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
		return (
			`${r.run.runId} · ${r.manifest.models.evaluated}: ${r.manifest.dataset.selected_case_numbers.length} cases, ` +
			`${files} stage file${files === 1 ? '' : 's'}, ${records} records` +
			(r.calls ? `, a call log of ${r.calls.entries.length} calls` : ', no call log') +
			(r.manifest.simulated ? ' (simulated)' : '')
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

	constructor(openStore: () => Promise<IdbStore> = sharedIdbStore) {
		this.#openStore = openStore;
	}

	async load(): Promise<void> {
		try {
			const runs = await listStoredRuns(await this.#openStore());
			const keys = runs.map((r) => keyOf(r.run));
			this.selected = this.selected.filter((k) => keys.includes(k));
			this.runs = runs;
			this.status = 'ready';
			this.error = null;
			this.storage = await estimateStorage();
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
		this.selected = on ? this.runs.map((r) => keyOf(r.run)) : [];
	}

	/** Downloads the selected runs as one zip in the canonical layout. */
	async exportSelected(): Promise<void> {
		const chosen = this.runs.filter((r) => this.selected.includes(keyOf(r.run)));
		if (chosen.length === 0) return;
		this.busy = 'export';
		this.outcome = null;
		try {
			const runs = chosen.map((r) => r.run);
			const files = await readRunsFiles(await this.#openStore(), runs);
			const zip = await zipBundle(files);
			const name = exportFileName(runs, Date.now());
			downloadBytes(zip, name, 'application/zip');
			this.outcome = {
				kind: 'ok',
				title: `Exported ${chosen.length} run${chosen.length === 1 ? '' : 's'} as ${name}`,
				lines: [`${files.size} files, ${formatBytes(zip.length)} compressed.`]
			};
		} catch (e) {
			this.outcome = { kind: 'error', title: 'Export failed', lines: [(e as Error).message] };
		} finally {
			this.busy = null;
		}
	}

	/** Downloads one file of a run, exactly as it would be in the zip. */
	async downloadFile(run: RunKey, path: string): Promise<void> {
		const files = await readRunFiles(await this.#openStore(), run);
		const text = files.get(path);
		if (text === undefined) return;
		const name = path.split('/').pop()!;
		downloadText(text, name, name.endsWith('.json') ? 'application/json' : 'application/x-ndjson');
	}

	/** The files of a stored run (path → size in bytes), for the single-file downloads. */
	async filesOf(run: RunKey): Promise<{ path: string; bytes: number }[]> {
		return runFileSizes(await this.#openStore(), run);
	}

	/** Imports a zip file. */
	async importZip(file: File): Promise<void> {
		await this.#import(async () => {
			if (file.size > DEFAULT_BUNDLE_LIMITS.maxTotalBytes) {
				throw new BundleError(
					[
						`the file is ${formatBytes(file.size)}, more than the ` +
							`${formatBytes(DEFAULT_BUNDLE_LIMITS.maxTotalBytes)} allowed.`
					],
					file.name
				);
			}
			if (!/\.zip$/i.test(file.name)) {
				throw new BundleError(
					['not a .zip file. Pick the zip exported here or by the CLI, or a folder.'],
					file.name
				);
			}
			return readZipBundle(new Uint8Array(await file.arrayBuffer()), file.name);
		});
	}

	/** Imports the files of a chosen folder (their paths relative to the folder's parent). */
	async importFolder(files: readonly File[]): Promise<void> {
		const name = files[0]?.webkitRelativePath.split('/')[0] || 'the folder';
		await this.#import(async () => {
			const total = files.reduce((n, f) => n + f.size, 0);
			if (total > DEFAULT_BUNDLE_LIMITS.maxTotalBytes) {
				throw new BundleError(
					[
						`the folder holds ${formatBytes(total)}, more than the ` +
							`${formatBytes(DEFAULT_BUNDLE_LIMITS.maxTotalBytes)} allowed. Import fewer runs at a time.`
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

	async #import(read: () => Promise<Bundle>): Promise<void> {
		this.busy = 'import';
		this.outcome = null;
		this.pending = null;
		try {
			const bundle = await read();
			const conflicts = await findConflicts(await this.#openStore(), bundle.runs);
			if (conflicts.length) {
				this.pending = { bundle, conflicts };
				this.outcome = {
					kind: 'error',
					title: `${bundle.name} was not imported: ${conflicts.length} of its runs ${conflicts.length === 1 ? 'is' : 'are'} in this browser already`,
					lines: [
						...conflicts.map((r) => `${runLabel(r)} is stored already.`),
						'Nothing was imported and nothing stored was changed.'
					]
				};
				return;
			}
			await this.#write(bundle, false);
		} catch (e) {
			this.outcome =
				e instanceof BundleError
					? {
							kind: 'error',
							title: `${e.message.split('\n')[0].replace(/:$/, '')}. Nothing was imported.`,
							lines: e.problems
						}
					: { kind: 'error', title: 'Nothing was imported', lines: [(e as Error).message] };
		} finally {
			this.busy = null;
		}
	}

	async #write(bundle: Bundle, replace: boolean): Promise<void> {
		await importRuns(await this.#openStore(), bundle.runs, { replace });
		this.pending = null;
		this.outcome = {
			kind: 'ok',
			title: `Imported ${bundle.runs.length} run${bundle.runs.length === 1 ? '' : 's'} from ${bundle.name}${replace ? ', replacing the stored ones' : ''}`,
			lines: [
				...describeRuns(bundle),
				...(bundle.ignored.length
					? [
							`Skipped ${bundle.ignored.length} folder or system entr${bundle.ignored.length === 1 ? 'y' : 'ies'}: ${bundle.ignored.slice(0, 3).join(', ')}${bundle.ignored.length > 3 ? ', …' : ''}`
						]
					: [])
			]
		};
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
			this.outcome = {
				kind: 'error',
				title: 'Nothing was imported',
				lines: [(e as Error).message]
			};
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
			this.outcome = { kind: 'ok', title: `Deleted ${runLabel(run)}`, lines: [] };
			await this.load();
		} catch (e) {
			this.outcome = { kind: 'error', title: 'Not deleted', lines: [(e as Error).message] };
		} finally {
			this.busy = null;
		}
	}
}

export const bundlesState = new BundlesState();

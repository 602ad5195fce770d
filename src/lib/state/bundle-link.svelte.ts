/**
 * A bundle opened from a link (`/results?bundle=<url>`): the link is checked, a HEAD learns the
 * size, the user is asked ("Open the bundle of N MB from host X?"), and only then the zip is
 * fetched (from host X, no redirect followed, no more than N MB read), read by the bundle reader
 * and shown on Results from memory, read-only. Nothing is
 * written to IndexedDB until the user clicks Import, which goes through the Bundles page's
 * all-or-nothing import (`adapters/idb-import`), stored runs replaced only after a confirmation.
 */
import type { BundleView } from '$lib/adapters/bundle-view';
import type { RunKey } from '$lib/core/layout';
import type { CoreText } from '$lib/core/said';
import { readBundleLink, type BundleLink, type LinkRefusal } from '$lib/view/bundle-link';
import { BundleFetchError, bundleHead, fetchBundle, type BundleFailure } from './bundle-fetch';
import { redirectedHost } from './bundle-redirect';
import { idbImportModule, openSharedIdbStore, zipBundleModule } from './lazy-store';
import type { ResultsState } from './results.svelte';

export type BundleLinkPhase =
	| 'idle'
	| 'checking'
	| 'confirm'
	| 'reading'
	| 'open'
	| 'importing'
	| 'conflict'
	| 'imported'
	| 'failed';

/** Why the bundle was not opened or not imported, for the page to word. */
export type BundleLinkProblem =
	| { kind: 'link'; refusal: LinkRefusal }
	| { kind: 'fetch'; failure: BundleFailure }
	| { kind: 'bundle'; problems: string[]; said: (CoreText | null)[]; total: number }
	| { kind: 'error'; message: string };

export interface BundleLinkDeps {
	/** The page whose runs the bundle replaces while it is shown. */
	results: ResultsState;
	fetchImpl?: typeof fetch;
	openStore?: typeof openSharedIdbStore;
}

export class BundleLinkState {
	phase = $state<BundleLinkPhase>('idle');
	link = $state.raw<BundleLink | null>(null);
	/** The raw `bundle` parameter, for a refused link's message. */
	raw = $state('');
	/** Size from the HEAD, in bytes; null when the server did not say. */
	size = $state<number | null>(null);
	/** The host the HEAD was redirected to (escaped); '' when it was not redirected. */
	redirectedTo = $state('');
	/**
	 * The URL the HEAD ended at, whose host the user is shown: the GET asks it, following no
	 * redirect, so the bytes come from that origin or not at all.
	 */
	#source = '';
	/** The most a bundle may be (the bundle reader's limit), in bytes. */
	max = $state(0);
	problem = $state.raw<BundleLinkProblem | null>(null);
	/** Stored runs the bundle would replace (phase `conflict`). */
	conflicts = $state.raw<RunKey[]>([]);
	/** What was imported (phase `imported`). */
	imported = $state.raw<{ count: number; name: string } | null>(null);
	/** The bundle shown, read-only (phases `open` to `imported`). */
	view = $state.raw<BundleView | null>(null);

	#results: ResultsState;
	#fetchImpl: typeof fetch | undefined;
	#openStore: typeof openSharedIdbStore;
	#abort: AbortController | null = null;

	constructor(deps: BundleLinkDeps) {
		this.#results = deps.results;
		this.#fetchImpl = deps.fetchImpl;
		this.#openStore = deps.openStore ?? openSharedIdbStore;
	}

	#options() {
		this.#abort = new AbortController();
		const online = () => globalThis.navigator?.onLine ?? true;
		return { fetchImpl: this.#fetchImpl, online, signal: this.#abort.signal };
	}

	/** Fails with `problem`, and shows this browser's runs instead. */
	#fail(problem: BundleLinkProblem): void {
		this.problem = problem;
		this.phase = 'failed';
		void this.#results.showBundle(null);
	}

	#failWith(e: unknown): void {
		if (e instanceof BundleFetchError) this.#fail({ kind: 'fetch', failure: e.failure });
		else this.#fail({ kind: 'error', message: (e as Error).message });
	}

	/** Reads the link and asks the server for the size; then waits for the user (`open`). */
	async begin(raw: string): Promise<void> {
		this.raw = raw;
		const read = readBundleLink(raw);
		if (!read.link) return this.#fail({ kind: 'link', refusal: read.refusal });
		this.link = read.link;
		this.phase = 'checking';
		try {
			this.max = (await zipBundleModule()).DEFAULT_BUNDLE_LIMITS.maxTotalBytes;
			const head = await bundleHead(read.link.url, this.max, this.#options());
			this.size = head.bytes;
			this.#source = head.finalURL;
			this.redirectedTo = redirectedHost(read.link.url, head.finalURL);
			this.phase = 'confirm';
		} catch (e) {
			this.#failWith(e);
		}
	}

	/** After the user said yes: fetches and reads the bundle, and shows its runs. */
	async open(): Promise<void> {
		const link = this.link;
		if (!link || this.phase !== 'confirm') return;
		this.phase = 'reading';
		const { BundleError, readZipBundle } = await zipBundleModule();
		try {
			// No more than the size the user agreed to open, when the HEAD said one.
			const options = { ...this.#options(), agreed: this.size };
			const bytes = await fetchBundle(this.#source || link.url, this.max, options);
			const bundle = await readZipBundle(bytes, link.name);
			const { bundleView } = await import('$lib/adapters/bundle-view');
			this.view = bundleView(bundle, link.url, bytes.length);
			this.phase = 'open';
			await this.#results.showBundle(this.view);
		} catch (e) {
			if (this.phase !== 'reading') return; // cancelled
			if (e instanceof BundleError) {
				const { problems, problemsSaid: said, total } = e;
				this.#fail({ kind: 'bundle', problems, said, total });
			} else this.#failWith(e);
		}
	}

	/** The user said no (or cancelled the reading): this browser's runs are shown. */
	cancel(): void {
		this.#abort?.abort();
		this.phase = 'idle';
		this.view = null;
		void this.#results.showBundle(null);
	}

	/** Imports the bundle shown, all or nothing; asks first when it holds stored runs. */
	async import(replace = false): Promise<void> {
		const view = this.view;
		if (!view) return;
		this.phase = 'importing';
		try {
			const { findConflicts, importRuns } = await idbImportModule();
			const store = await this.#openStore();
			const conflicts = replace ? [] : await findConflicts(store, view.bundle.runs);
			if (conflicts.length) {
				this.conflicts = conflicts;
				this.phase = 'conflict';
				return;
			}
			await importRuns(store, view.bundle.runs, { replace });
			this.imported = { count: view.bundle.runs.length, name: view.bundle.name };
			this.phase = 'imported';
			await this.#results.showBundle(null, true);
		} catch (e) {
			this.problem = { kind: 'error', message: (e as Error).message };
			this.phase = 'open';
		}
	}
}

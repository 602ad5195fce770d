/**
 * The Run page's batch mode in files (PROTOCOL.md §3, batch mode; §8, run plans), for one run
 * and for a plan alike: a waiting round's input files downloaded (a plan's run by run), output
 * files uploaded (imported whole or not at all, then the run or plan goes on), and after a reload
 * the work this browser was sending rounds for taken up again, once: its saved round polled
 * (provider) or offered again (files), never sent twice.
 */
import { coreText } from './core-text.svelte';
import type { BatchChoice } from '$lib/core/control/batch-view';
import type { RunRequest } from '$lib/adapters/workers/run-controller-types';
import type { RunEngine } from '$lib/adapters/workers/run-engine';

/**
 * After an upload: the answers saved (in which round, or for how many runs); that the files held
 * only lines taken before (`already`: the rounds they were taken in); or why none.
 */
export type UploadNote =
	| { ok: true; answers: number; round: number; runs: number; already: number[] | null }
	| { ok: false; text: string };

/** A plan's run's input file as downloaded: the run id first (two repetitions' share a name). */
export const downloadName = (runId: string, name: string): string => `${runId}-${name}`;

/** How one run or one plan reads its input files, imports outputs and goes on. */
export interface BatchFiles<Item> {
	engine: () => RunEngine;
	/** The run waiting; null: every waiting run of the last plan. */
	request: () => RunRequest | null;
	goOn: () => Promise<void>;
	/** The key of an unfinished item, and whether this browser was sending its rounds. */
	key: (item: Item) => string;
	waits: (item: Item) => boolean;
}

/** What the page's files part uses of either page. */
export type BatchUploads = Pick<BatchPage<unknown>, 'download' | 'upload' | 'uploading' | 'note'>;

export class BatchPage<Item> {
	/** How the form's run sends its calls. */
	choice = $state<BatchChoice>('interactive');
	uploading = $state(false);
	note = $state.raw<UploadNote | null>(null);
	/** Work already taken up after this page loaded, by key: each once. */
	readonly #resumed: string[] = [];
	readonly #io: BatchFiles<Item>;

	constructor(io: BatchFiles<Item>) {
		this.#io = io;
	}

	/** Offers input file `name` (of the plan's run `index`, saved under `runId` first). */
	async download(name: string, index = 0, runId?: string): Promise<void> {
		const reply = await this.#io.engine().batchInput(name, runId === undefined ? undefined : index);
		if (reply.ok && typeof reply.text === 'string') {
			const { downloadText, safeFileName } = await import('$lib/adapters/download');
			const saved = runId === undefined ? name : downloadName(runId, name);
			downloadText(reply.text, safeFileName(saved), 'application/jsonl');
		}
	}

	/** Imports output files for the waiting round(s), then goes on. */
	async upload(files: readonly File[]): Promise<void> {
		this.uploading = true;
		this.note = null;
		try {
			// The files themselves: the worker reads each a line at a time, never whole.
			const read = files.map((f) => ({ name: f.name, file: f }));
			const reply = await this.#io.engine().importBatch(this.#io.request(), read);
			if (!reply.ok) {
				this.note = { ok: false, text: coreText(reply.error.message, reply.error.said) };
				return;
			}
			const got = reply.planImported ?? (reply.imported ? [reply.imported] : []);
			const answers = got.reduce((n, g) => n + g.answers, 0);
			// An import run again (the same files twice) is harmless: said, and nothing saved.
			const already =
				got.length > 0 && got.every((g) => !g.imported)
					? got
							.flatMap((g) => g.alreadyRounds)
							.filter((r, i, all) => all.indexOf(r) === i)
							.sort((a, b) => a - b)
					: null;
			this.note = { ok: true, answers, round: got[0]?.round ?? 0, runs: got.length, already };
		} finally {
			this.uploading = false;
		}
		await this.#io.goOn();
	}

	/** The first of `items` this browser was sending rounds for, not taken up before; null if none. */
	toResume(items: readonly Item[]): Item | null {
		const item = items.find((i) => this.#io.waits(i) && !this.#resumed.includes(this.#io.key(i)));
		if (item) this.taken(this.#io.key(item));
		return item ?? null;
	}

	/** Marks `key` as taken up (work started here is never taken up again by itself). */
	taken(key: string): void {
		if (!this.#resumed.includes(key)) this.#resumed.push(key);
	}
}

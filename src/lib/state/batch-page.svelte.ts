/**
 * The Run page's batch mode (PROTOCOL.md §3, batch mode): the form's choice of how calls are
 * sent; a files round's input files downloaded and its output files uploaded (imported whole or
 * not at all, then the run goes on); and after a reload, a batch run this tab was carrying on
 * taken up again: its saved round is polled (provider) or offered again (files), never resent.
 */
import { runKey } from '$lib/core/names';
import { coreText } from './core-text.svelte';
import type { BatchChoice } from './batch-view';
import type { RunRequest } from './run-controller-types';
import type { RunEngine } from './run-engine';
import type { UnfinishedRun } from './unfinished-runs';

/** What the page shows after an upload: how many answers were saved, or why nothing was. */
export type UploadNote = { ok: true; answers: number; round: number } | { ok: false; text: string };

export class BatchPage {
	choice = $state<BatchChoice>('interactive');
	uploading = $state(false);
	note = $state.raw<UploadNote | null>(null);
	/** Runs already taken up after this page loaded, by run key: each once. */
	readonly #resumed: string[] = [];
	readonly #engine: () => RunEngine;
	readonly #goOn: (request: RunRequest) => Promise<void>;

	/** `goOn` starts the request again (after an import), as the page starts any run. */
	constructor(engine: () => RunEngine, goOn: (request: RunRequest) => Promise<void>) {
		this.#engine = engine;
		this.#goOn = goOn;
	}

	/** Offers a waiting round's input file for download. */
	async download(name: string): Promise<void> {
		const reply = await this.#engine().batchInput(name);
		if (reply.ok && typeof reply.text === 'string') {
			const { downloadText, safeFileName } = await import('$lib/adapters/download');
			downloadText(reply.text, safeFileName(name), 'application/jsonl');
		}
	}

	/** Imports the output files of the run `request` waits in, then goes on with it. */
	async upload(request: RunRequest, files: readonly File[]): Promise<void> {
		this.uploading = true;
		this.note = null;
		try {
			const read = await Promise.all(
				files.map(async (f) => ({ name: f.name, text: await f.text() }))
			);
			const reply = await this.#engine().importBatch(request, read);
			if (!reply.ok) {
				this.note = { ok: false, text: coreText(reply.error.message, reply.error.said) };
				return;
			}
			const { answers = 0, round = 0 } = reply.imported ?? {};
			this.note = { ok: true, answers, round };
		} finally {
			this.uploading = false;
		}
		await this.#goOn(request);
	}

	/**
	 * The batch run to take up again after a reload: one this browser was sending rounds for
	 * (its plan says batch, interrupted or waiting for files), not held by another tab, not
	 * taken up before by this page. Null when there is none.
	 */
	toResume(items: readonly UnfinishedRun[]): UnfinishedRun | null {
		const item = items.find(
			(u) =>
				u.plan.batch !== undefined &&
				(u.state === 'interrupted' || u.state === 'paused') &&
				!this.#resumed.includes(runKey(u.plan))
		);
		if (item) this.#resumed.push(runKey(item.plan));
		return item ?? null;
	}
}

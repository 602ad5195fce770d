/**
 * The Run page's plan in batch mode (PROTOCOL.md §3, batch mode; §8, run plans): a files round's
 * input files downloaded run by run, ONE upload of output files answering every waiting run
 * (imported whole or not at all, then the plan goes on), and after a reload the plan this browser
 * was sending rounds for taken up again: every run's saved round polled (provider) or offered
 * again (files), never sent twice.
 */
import { coreText } from './core-text.svelte';
import type { RunEngine } from './run-engine';
import type { StoredPlan } from './plan-specs';

/** What the page shows after an upload: the answers saved and for how many runs, or why none. */
export type PlanUploadNote =
	{ ok: true; answers: number; runs: number } | { ok: false; text: string };

/** A run's input file as downloaded: the run id first (two repetitions' files share a name). */
export const downloadName = (runId: string, name: string): string => `${runId}-${name}`;

export class PlanBatchPage {
	uploading = $state(false);
	note = $state.raw<PlanUploadNote | null>(null);
	/** Plans already taken up after this page loaded: each once. */
	readonly #resumed: string[] = [];
	readonly #engine: () => RunEngine;
	readonly #goOn: () => Promise<void>;

	/** `goOn` starts the plan shown again (after an import). */
	constructor(engine: () => RunEngine, goOn: () => Promise<void>) {
		this.#engine = engine;
		this.#goOn = goOn;
	}

	/** Offers one of the waiting input files of the plan's run `index` (as `downloadName`). */
	async download(index: number, runId: string, name: string): Promise<void> {
		const reply = await this.#engine().planBatchInput(index, name);
		if (reply.ok && typeof reply.text === 'string') {
			const { downloadText, safeFileName } = await import('$lib/adapters/download');
			downloadText(reply.text, safeFileName(downloadName(runId, name)), 'application/jsonl');
		}
	}

	/** Imports output files for every waiting run of the plan, then goes on with it. */
	async upload(files: readonly File[]): Promise<void> {
		this.uploading = true;
		this.note = null;
		try {
			const read = await Promise.all(
				files.map(async (f) => ({ name: f.name, text: await f.text() }))
			);
			const reply = await this.#engine().importPlanBatch(read);
			if (!reply.ok) {
				this.note = { ok: false, text: coreText(reply.error.message, reply.error.said) };
				return;
			}
			const got = reply.planImported ?? [];
			this.note = { ok: true, answers: got.reduce((n, g) => n + g.answers, 0), runs: got.length };
		} finally {
			this.uploading = false;
		}
		await this.#goOn();
	}

	/**
	 * The plan in batch mode to take up again after a reload: one this browser was sending
	 * rounds for (interrupted, or waiting for files), not taken up before by this page.
	 */
	toResume(plans: readonly StoredPlan[]): StoredPlan | null {
		const plan = plans.find(
			(p) =>
				p.batch !== undefined &&
				(p.status === 'running' || p.status === 'paused') &&
				!this.#resumed.includes(p.planId)
		);
		if (plan) this.#resumed.push(plan.planId);
		return plan ?? null;
	}

	/** Marks `planId` as taken up (a plan started here is never taken up again by itself). */
	taken(planId: string): void {
		if (!this.#resumed.includes(planId)) this.#resumed.push(planId);
	}
}

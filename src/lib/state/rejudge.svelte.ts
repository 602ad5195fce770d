/**
 * The Run page's Re-judge: a finished run of this browser re-judged into a new run id with
 * another judge (`rejudgeRun`, `core/engine/rejudge/`). Only judge calls are made, so it runs in
 * the page; its records go to IndexedDB like any run's, and Results and Inspect read them.
 */
import type { RunKey } from '$lib/core/layout';
import type { StageProgress } from '$lib/core/engine/types';
import { browserClientFactory } from '$lib/adapters/workers/browser-client';
import { openSharedIdbStore } from './lazy-store';
import { rejudgeClient, type RejudgeForm } from './rejudge-request';
import type { RunSources } from './run-request';
import type { RunError } from '$lib/adapters/workers/run-controller';
import { toRunError } from '$lib/core/control/run-snapshot';

/** A saved run that can be named as the source. */
export interface RejudgeSource {
	run: RunKey;
	model: string;
	judge: string;
}

export class RejudgeState {
	sources = $state.raw<RejudgeSource[]>([]);
	status = $state<'idle' | 'running' | 'done' | 'failed'>('idle');
	progress = $state.raw<StageProgress | null>(null);
	error = $state.raw<RunError | null>(null);
	/** The run the last re-judge wrote. */
	made = $state.raw<RunKey | null>(null);
	#abort: AbortController | null = null;

	/** Lists the runs saved in this browser (each with its manifest's models). */
	async refresh(): Promise<void> {
		const store = await openSharedIdbStore();
		const found: RejudgeSource[] = [];
		for (const run of await store.listRuns()) {
			const manifest = await store.readManifest(run);
			if (manifest)
				found.push({ run, model: manifest.models.evaluated, judge: manifest.models.judge });
		}
		this.sources = found;
	}

	async start(sources: RunSources, form: RejudgeForm): Promise<void> {
		if (!sources.dataset || !form.source || this.status === 'running') return;
		const client = rejudgeClient(sources, form);
		this.#abort = new AbortController();
		[this.status, this.error, this.progress, this.made] = ['running', null, null, null];
		try {
			const [{ openSession }, store, model] = await Promise.all([
				import('$lib/core/session'),
				openSharedIdbStore(),
				browserClientFactory(client.spec)({ onEvent: () => {} })
			]);
			// No manifest: the session refuses the source by name (`rejudge_no_source`).
			const source = (await store.readManifest(form.source)) ?? {
				models: { evaluated: '', user: '', judge: '' },
				endpoints: { evaluated: '', user: '', judge: '' }
			};
			const session = openSession({
				concurrency: client.spec.concurrency,
				// A client that limits its own calls (the OpenAI client) brings the session its pool.
				limiters: model.limiters,
				signal: this.#abort.signal,
				runs: [
					{
						dataset: sources.dataset,
						client: model,
						store,
						runId: form.runId,
						// The row's models; the re-judged run takes the source's, with the new judge.
						models: { ...source.models, judge: client.judge.model },
						endpoints: { ...source.endpoints, judge: client.judge.endpoint },
						pack: sources.pack,
						keys: client.keys,
						mode: {
							kind: 'rejudge',
							source: form.source,
							judge: client.judge,
							settings: {
								timeout_s: client.spec.settings.timeout_s,
								retries: client.spec.settings.retries
							},
							onStage: (p) => (this.progress = p)
						}
					}
				]
			});
			const [outcome] = (await session.done).runs;
			if (outcome.status !== 'done') throw outcome.error;
			[this.made, this.status] = [outcome.result!.run, 'done'];
			await this.refresh();
		} catch (e) {
			[this.error, this.status] = [toRunError(e), 'failed'];
		}
	}

	stop(): void {
		this.#abort?.abort();
	}
}

export const rejudgeState = new RejudgeState();

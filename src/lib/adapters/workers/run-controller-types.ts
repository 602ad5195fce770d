/**
 * What `RunController` is given: one run's request (dataset, models, settings, the model
 * client's recipe) and the controller's options. Types only, so the page and the worker share them.
 */
import type { BatchSendMode } from '$lib/core/batch/store';
import type { ToolInfo } from '$lib/core/engine/manifest';
import type { RunDataset, StageName } from '$lib/core/engine/types';
import type { ModelEvent } from '$lib/core/model/events';
import type { ModelClient, RoleEndpoint } from '$lib/core/model/types';
import type { PromptPack } from '$lib/core/prompts/pack';
import type { Role, Settings } from '$lib/core/records';
import type { CheckpointStore } from '$lib/core/store/types';
import type { PlanBook, PlanStorage } from '$lib/core/control/run-plans';
import type { RunSnapshot } from '$lib/core/control/run-snapshot';

/** Hooks the model client reports to, so retries count in the progress. */
export interface ClientHooks {
	onEvent(event: ModelEvent): void;
}

/** What a run's model client is built from (keys included); see `RunRequest.clientSpec`. */
export interface ClientSpec {
	simulated: boolean;
	endpoints: Record<Role, RoleEndpoint>;
	settings: Settings;
	concurrency: number;
	pack: PromptPack;
}

/** Everything one run needs. Holds keys only inside `makeClient`'s closure. */
export interface RunRequest {
	dataset: RunDataset;
	/** File name of the dataset, remembered for "Resume". */
	datasetName: string;
	runId: string;
	/** First `limit` cases; null for all. */
	limit: number | null;
	stages: readonly StageName[];
	models: Record<Role, string>;
	/** Base URLs only. */
	endpoints: Record<Role, string>;
	settings: Settings;
	concurrency: number;
	pack: PromptPack;
	/** Keys in use, so the engine can check no record holds one. */
	keys: readonly string[];
	/** Builds the model client, wired to the hooks. */
	makeClient(hooks: ClientHooks): ModelClient | Promise<ModelClient>;
	/**
	 * What `makeClient` was built from (keys included), so the run's worker can build the same
	 * client; it reaches the worker by `postMessage` only and is never stored.
	 */
	clientSpec?: ClientSpec;
	tool?: ToolInfo;
	/** Batch mode: how rounds are sent (PROTOCOL.md §3, batch mode); absent: interactive. */
	batch?: BatchSendMode;
}

/** Builds the model client of a run; the browser's loads the `openai` package on demand. */
export type ClientFactory = (spec: ClientSpec) => RunRequest['makeClient'];

export interface RunControllerOptions {
	store: CheckpointStore;
	/** Where plans are remembered for "Resume": `localStorage`, or the page's (from a worker). */
	plans: PlanStorage | PlanBook;
	/** Told on every change; throttle before drawing. */
	onChange?: (snapshot: RunSnapshot) => void;
	/** @default () => new Date() */
	now?: () => Date;
}

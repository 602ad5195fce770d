/**
 * The engine's inputs of a generation command (the run, its dataset, models and the file store
 * under --output-root) and the tool the manifest names.
 */
import type { RunStagesOptions } from '../../lib/core/engine';
import { DEFAULT_TOOL, type ToolInfo } from '../../lib/core/engine/manifest';
import type { ModelClient } from '../../lib/core/model/types';
import { escapeControl } from '../../lib/core/text/escape-control';
import { FsStore } from '../../lib/adapters/fs-store';
import type { CliIo } from '../types';
import { name as packageName, version as packageVersion } from '../../../package.json';
import type { StageArgs } from './stage-args';
import type { StageInputs } from './stage-inputs';

/** The engine's options that do not depend on the scheduler (`runStages` or `runAll`). */
export type EngineInputs = Omit<
	RunStagesOptions,
	'stages' | 'concurrency' | 'onProgress' | 'progress'
>;

/** The engine's inputs of a generation command: the run, its dataset, models and output root. */
export function engineInputs(
	args: StageArgs,
	{ dataset, pack, loadDataset, datasetSeal }: StageInputs,
	client: ModelClient,
	io: CliIo
): EngineInputs {
	const { options } = args;
	return {
		dataset,
		...(loadDataset ? { loadDataset } : {}),
		limit: options.limit ?? undefined,
		client,
		store: new FsStore(options.outputRoot, {
			onNotice: (m) => io.stderr(`note: ${escapeControl(m)}\n`),
			...(datasetSeal ? { datasetSeal } : {})
		}),
		runId: options.runId,
		models: args.models,
		endpoints: args.endpoints,
		settings: options.settings,
		pack,
		signal: io.signal,
		keys: args.keys,
		tool: toolInfo()
	};
}

/** Name and version of this package, for the manifest (inlined when the CLI is bundled). */
export function toolInfo(): ToolInfo {
	return {
		name: packageName || DEFAULT_TOOL.name,
		version: packageVersion || DEFAULT_TOOL.version
	};
}

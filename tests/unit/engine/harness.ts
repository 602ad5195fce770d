/** Shared set-up of the engine tests: one run over the fixture cases with a scripted client. */
import { runStages, type RunStagesOptions } from '../../../src/lib/core/engine/run-stages';
import type { StageName } from '../../../src/lib/core/engine/types';
import { modelDirName, type RunKey } from '../../../src/lib/core/layout';
import type { ModelClient } from '../../../src/lib/core/model/types';
import type { RecordOf, StageFile } from '../../../src/lib/core/records';
import type { CheckpointStore } from '../../../src/lib/core/store/types';
import { makeDataset } from '../../fixtures/engine/cases';

export const MODELS = { evaluated: 'eval-model', user: 'user-model', judge: 'judge-model' };
export const ENDPOINTS = {
	evaluated: 'http://eval.test/v1',
	user: 'http://user.test/v1',
	judge: 'http://judge.test/v1'
};
export const ALL_STAGES: StageName[] = ['gen', 'dcg', 'ljp-direct', 'ljp-gold', 'ljp-interaction'];

export function run(
	client: ModelClient,
	store: CheckpointStore,
	options: Partial<RunStagesOptions> = {}
) {
	return runStages({
		dataset: makeDataset(4),
		stages: ALL_STAGES,
		client,
		store,
		runId: 'r1',
		models: MODELS,
		endpoints: ENDPOINTS,
		...options
	});
}

export async function runKey(runId = 'r1'): Promise<RunKey> {
	return { runId, modelDir: await modelDirName(MODELS.evaluated) };
}

export async function records<F extends StageFile>(
	store: CheckpointStore,
	file: F,
	runId = 'r1'
): Promise<RecordOf<F>[]> {
	return (await store.readRecords(await runKey(runId), file)) as RecordOf<F>[];
}

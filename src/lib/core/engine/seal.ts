/**
 * Resume seals: how a resume of a finished stage skips reading and re-hashing its records.
 *
 * Checking a saved stage means reading every record's head and recomputing the `input_sha256`
 * it must have (filling its prompts, hashing them): for a 4,320-case run, seconds, and most of a
 * resume that finds nothing to do. Once a stage has run to its end (every selected case saved,
 * every record checked or made by this code, the files put in dataset order), the engine asks
 * the store to seal it: to note the key below and, per file the stage's check reads, what the
 * file is now (the file store: size, modification and change times, inode). A later start with
 * the same key whose files are all unchanged takes the stage as done without reading them; any
 * change (an append, a hand edit, a torn write, a copy) voids the seal and the full check runs,
 * then seals again. Stores without seals (memory, IndexedDB) always check in full.
 *
 * The key is everything else the check depends on: the saved manifest's fields a resume compares
 * (dataset bytes, selected cases, history fields, prompts, protocol, models, endpoints, the
 * result-affecting settings, simulated or not) and `INPUT_HASH_SCHEME`, which names how this
 * code computes `input_sha256`.
 */
import { sha256Canonical } from '../hash';
import { caseKey, type Manifest, type StageFile } from '../records';
import { OPERATIONAL_SETTINGS } from '../run-config';
import type { CheckpointStore } from '../store/types';
import type { RunKey } from '../layout';
import type { PreparedStage } from './stages/shared';
import type { StageName } from './types';

/**
 * Names the way `input_sha256` is computed; a seal made under another name is void. It is
 * derived from the hashes `input-hash.spec.ts` pins (a test checks it), so a change to what the
 * hashes cover, which must update those pins, must change this name too.
 */
export const INPUT_HASH_SCHEME = 'input-sha256:9e0d1bb543d01011';

/**
 * The files whose records a stage's resume check reads: its own, and those of the stages it
 * builds on (ljp-interaction checks gen's chain before its own file). A seal holds all of them,
 * so a changed upstream file voids the seals of the stages that read it.
 */
export const SEALED_FILES: Record<StageName, readonly StageFile[]> = {
	gen: ['a1', 'LCA_results', 'interaction'],
	lca: ['a1', 'LCA_results'],
	dcg: ['force_ask', 'DCG_results'],
	'ljp-direct': ['a1_direct', 'LJP_direct'],
	'ljp-gold': ['a1_force_judge', 'LJP_gold'],
	'ljp-interaction': ['a1', 'LCA_results', 'interaction', 'LJP_interaction']
};

/** The seal key of a run: its manifest's compared fields and the hash scheme (see above). */
export function sealKey(manifest: Manifest): Promise<string> {
	const operational = new Set<string>(OPERATIONAL_SETTINGS);
	const settings = Object.fromEntries(
		Object.entries(manifest.settings).filter(([key]) => !operational.has(key))
	);
	const endpoints = Object.fromEntries(
		Object.entries(manifest.endpoints).map(([role, url]) => [role, url.replace(/\/+$/, '')])
	);
	return sha256Canonical({
		scheme: INPUT_HASH_SCHEME,
		run_id: manifest.run_id,
		model_dir: manifest.model_dir,
		schema_version: manifest.schema_version,
		dataset: {
			sha256: manifest.dataset.sha256,
			n_cases: manifest.dataset.n_cases,
			selected: manifest.dataset.selected_case_numbers.map(caseKey),
			history_fields: manifest.dataset.history_fields
		},
		code_sha256: manifest.code_sha256,
		prompts_sha256: manifest.prompts_sha256,
		models: manifest.models,
		endpoints,
		settings,
		simulated: manifest.simulated
	});
}

/** What a sealed stage has to do: nothing; every selected case counts as resumed. */
export function sealedPlan(stage: StageName, total: number): PreparedStage {
	return {
		pending: [],
		resumed: total,
		runCase: () => Promise.reject(new Error(`${stage} is sealed: no case to run`)),
		order: {}
	};
}

/** True when the store holds a valid seal of `stage` under `key`. */
export async function isSealed(
	store: CheckpointStore,
	run: RunKey,
	stage: StageName,
	key: string
): Promise<boolean> {
	return (await store.isStageSealed?.(run, stage, key, SEALED_FILES[stage])) ?? false;
}

/**
 * Seals a stage that has just run to its end. Only a speed-up for the next resume: a seal that
 * cannot be written (disk full, read-only) is left out and the next resume checks in full.
 */
export async function seal(
	store: CheckpointStore,
	run: RunKey,
	stage: StageName,
	key: string
): Promise<void> {
	await store.sealStage?.(run, stage, key, SEALED_FILES[stage]).catch(() => undefined);
}

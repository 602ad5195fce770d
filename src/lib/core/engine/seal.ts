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
import { Case, type CategoryMap, type HistoryFields } from '../dataset/types';
import { CheckpointError } from '../errors';
import { endpointKey } from '../names';
import { coded } from '../said';
import { sha256Canonical } from '../hash';
import { caseKey, type Manifest } from '../records';
import { OPERATIONAL_SETTINGS } from '../run-config';
import type { CheckpointStore } from '../store/types';
import type { RunKey } from '../layout';
import { SEALED_FILES } from '../protocol';
import type { PreparedStage } from './stages/shared';
import type { RunDataset, StageName } from './types';

/**
 * Names the way `input_sha256` is computed; a seal made under another name is void. It is
 * derived from the hashes `input-hash.spec.ts` pins (a test checks it), so a change to what the
 * hashes cover, which must update those pins, must change this name too.
 */
export const INPUT_HASH_SCHEME = 'input-sha256:9e0d1bb543d01011';

/** The seal key of a run: its manifest's compared fields and the hash scheme (see above). */
export function sealKey(manifest: Manifest): Promise<string> {
	const operational = new Set<string>(OPERATIONAL_SETTINGS);
	const settings = Object.fromEntries(
		Object.entries(manifest.settings).filter(([key]) => !operational.has(key))
	);
	const endpoints = Object.fromEntries(
		Object.entries(manifest.endpoints).map(([role, url]) => [role, endpointKey(url)])
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

/**
 * What a run's manifest takes from its dataset: enough to open or resume the run and to find
 * its seals without the cases' contents. The CLI keeps these beside its seals (`dataset-seal.ts`
 * there) and starts from them when the dataset file's bytes are unchanged.
 */
export interface DatasetFacts {
	/** SHA-256 of the file's bytes. */
	sha256: string;
	/** `case_number` of every case as the file holds it, in file order. */
	caseNumbers: (string | number)[];
	historyFields: HistoryFields;
	categories: CategoryMap;
}

/**
 * A case of which only the position and number are known. Every other field of a case is a
 * getter that throws: code that needs a case's contents must have loaded the dataset.
 */
class PlaceholderCase {
	constructor(
		readonly index: number,
		readonly case_number: string,
		readonly case_number_value: string | number
	) {}
}
for (const field of Object.keys(Case.shape)) {
	if (Object.hasOwn(new PlaceholderCase(0, '', ''), field)) continue;
	Object.defineProperty(PlaceholderCase.prototype, field, {
		get(this: PlaceholderCase) {
			throw new Error(`case #${this.index}: only its number is known; its ${field} was not loaded`);
		}
	});
}

/**
 * A dataset made of {@link DatasetFacts}: each case a placeholder holding only its position and
 * number. It opens the run and counts its cases; a stage that is not sealed needs the real one
 * (`loadDataset` of `RunStagesOptions`), and a placeholder asked for anything else throws.
 */
export function datasetFromFacts(facts: DatasetFacts): RunDataset {
	return {
		cases: facts.caseNumbers.map(
			(value, index) => new PlaceholderCase(index, String(value), value) as unknown as Case
		),
		sha256: facts.sha256,
		historyFields: facts.historyFields,
		categories: facts.categories
	};
}

/**
 * The selected cases to prepare stages with. When `dataset` is made of placeholders (`loadDataset`
 * given) and some stage is not sealed, the real dataset is loaded here, under the run's lock,
 * and must be the file the placeholders stand for (same bytes, same cases), else the run stops
 * with a CheckpointError before anything is read or written.
 */
export async function casesToPrepare(
	dataset: RunDataset,
	loadDataset: (() => Promise<RunDataset>) | undefined,
	selected: Case[],
	everySealed: boolean
): Promise<Case[]> {
	if (!loadDataset || everySealed) return selected;
	const loaded = await loadDataset();
	const same =
		loaded.sha256 === dataset.sha256 &&
		loaded.cases.length === dataset.cases.length &&
		loaded.cases.every((c, i) => c.case_number_value === dataset.cases[i].case_number_value);
	if (!same) {
		throw new CheckpointError([coded('dataset_changed_while_starting', {})]);
	}
	return loaded.cases.slice(0, selected.length);
}

/** Whether every one of `stages` holds a valid seal under `key`. */
export async function allSealed(
	store: CheckpointStore,
	run: RunKey,
	stages: readonly StageName[],
	key: string
): Promise<boolean> {
	for (const stage of stages) if (!(await isSealed(store, run, stage, key))) return false;
	return true;
}

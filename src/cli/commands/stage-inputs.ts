/**
 * What a generation command runs on: the dataset (or, when the run's dataset seal holds for
 * the file as it is now, placeholders and a loader: `../dataset-seal.ts`) and the prompt pack.
 */
import { resolve } from 'node:path';
import type { RunDataset } from '../../lib/core/engine/types';
import { datasetFromFacts } from '../../lib/core/engine/seal';
import { DEFAULT_PROMPT_PACK, type PromptPack } from '../../lib/core/prompts';
import { escapeControl } from '../../lib/core/text/escape-control';
import { FsStore, type DatasetSeal } from '../../lib/adapters/fs-store';
import { modelDirName, RUN_ID_PATTERN } from '../../lib/core/layout';
import { readValidDataset } from '../dataset-file';
import {
	categoriesSha256,
	codeIdentity,
	datasetSealKey,
	matchingSealedDataset,
	sealedDatasetOf,
	type DatasetReadInputs
} from '../dataset-seal';
import type { CliIo } from '../types';
import { readPack } from './prompt-pack-file';
import type { StageArgs } from './stage-args';

/** What a generation command runs on. */
export interface StageInputs {
	/** The loaded dataset, or placeholders from the run's dataset seal (`loadDataset` set). */
	dataset: RunDataset;
	pack: PromptPack;
	/** With placeholders: loads the dataset, for the engine when a stage is not sealed. */
	loadDataset?: () => Promise<RunDataset>;
	/** What the file store keeps with the run's stage seals, for the next start. */
	datasetSeal?: DatasetSeal;
}

/**
 * The dataset (its warnings printed) and the prompt pack a generation command runs with. When
 * the run's dataset seal holds for the file as it is now (`dataset-seal.ts`), the dataset is not
 * parsed: the seal's warnings are printed and the engine gets placeholders and the loader.
 */
export async function readStageInputs(
	args: StageArgs,
	io: CliIo,
	/** Reads and checks the dataset; a run plan passes one that reads it once for all its runs. */
	read: typeof readValidDataset = readValidDataset
): Promise<StageInputs> {
	const { options, datasetLabel, promptsPath } = args;
	const readOptions = {
		label: datasetLabel,
		notFound: options.datasetChoice.notFound,
		historyFields: options.historyFields,
		categoriesPath: options.categoriesPath
	};
	const sealInputs: DatasetReadInputs = {
		path: options.dataset,
		historyFields: options.historyFields,
		categoriesPath: options.categoriesPath,
		code: await codeIdentity()
	};
	const saved = RUN_ID_PATTERN.test(options.runId)
		? await new FsStore(options.outputRoot)
				.readDatasetSeal({
					runId: options.runId,
					modelDir: await modelDirName(args.models.evaluated)
				})
				.catch(() => null)
		: null;
	const sealed = await matchingSealedDataset(saved, sealInputs);
	let inputs: Omit<StageInputs, 'pack'>;
	if (sealed !== null) {
		for (const w of sealed.warnings) io.stderr(`warning: ${escapeControl(w)}\n`);
		inputs = {
			dataset: datasetFromFacts(sealed),
			loadDataset: async () => (await read(options.dataset, readOptions)).dataset,
			datasetSeal: saved!
		};
	} else {
		const categoriesBefore = await categoriesSha256(sealInputs);
		const { dataset, warnings } = await read(options.dataset, readOptions);
		for (const w of warnings) io.stderr(`warning: ${escapeControl(w.text)}\n`);
		const categories = await categoriesSha256(sealInputs);
		const facts = sealedDatasetOf(dataset, warnings);
		const code = sealInputs.code;
		inputs = { dataset };
		// Sealed only when the category file read is the one hashed on both sides of the load.
		if (facts && code !== null && categories !== undefined && categories === categoriesBefore) {
			inputs.datasetSeal = {
				key: datasetSealKey({ ...sealInputs, code }, dataset.sha256, categories),
				facts
			};
		}
	}
	// A relative --prompts is taken from the user's directory.
	const pack =
		promptsPath === undefined
			? DEFAULT_PROMPT_PACK
			: await readPack(resolve(io.cwd, promptsPath), promptsPath);
	return { ...inputs, pack };
}

/**
 * The dataset a generation command runs on, its warnings printed. When the run's dataset seal
 * holds for the file as it is now (`../dataset-seal.ts`), the dataset is not parsed: the seal's
 * warnings are printed and the engine gets placeholders and the loader.
 */
import type { RunDataset } from '../../lib/core/engine/types';
import { datasetFromFacts } from '../../lib/core/engine/seal';
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
import type { StageArgs } from './stage-args';

/** The dataset of a generation command, loaded or sealed. */
export interface StageDataset {
	/** The loaded dataset, or placeholders from the run's dataset seal (`loadDataset` set). */
	dataset: RunDataset;
	/** With placeholders: loads the dataset, for the engine when a stage is not sealed. */
	loadDataset?: () => Promise<RunDataset>;
	/** What the file store keeps with the run's stage seals, for the next start. */
	datasetSeal?: DatasetSeal;
}

/** The dataset of `args`, read with `read` unless the run's dataset seal holds. */
export async function readStageDataset(
	args: StageArgs,
	io: CliIo,
	/** Reads and checks the dataset; a run plan passes one that reads it once for all its runs. */
	read: typeof readValidDataset
): Promise<StageDataset> {
	const { options, datasetLabel } = args;
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
	let inputs: StageDataset;
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
	return inputs;
}

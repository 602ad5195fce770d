/**
 * The dataset seal: how a generation command resumes a finished run without parsing its dataset.
 *
 * Reading, parsing and checking a 50 MB dataset is most of what a resume that finds nothing to do
 * costs, once the stages are sealed (`core/engine/seal.ts`). After a full load, the command hands
 * the file store what the run's manifest takes from the dataset (`DatasetFacts`: its SHA-256,
 * case numbers, history fields, category map) and the warnings the load printed, under a key
 * naming everything the load depended on:
 *
 * - the SHA-256 of the dataset file's bytes (hashed at every start, a fraction of a full load;
 *   a file's size and times are not trusted, since an edit can keep both),
 * - the history-field flags and the bytes of the `--categories` file, if any,
 * - this code: the CLI bundle's size and modification time and the package version, so a
 *   rebuilt CLI (whose loader may judge the file otherwise) never trusts an older seal. (Run
 *   unbundled, through tsx, it is this source file's: an edit of the loader alone is not seen
 *   there; delete `.resume-seals.json` after one.)
 *
 * The store writes it with the run's stage seals (`.resume-seals.json`, under the run's lock). A
 * later start whose key matches prints the same warnings and hands the engine placeholder cases
 * (`datasetFromFacts`) plus the real loader: the engine opens the run (the manifest comparison of
 * every resume), and only if some stage is not sealed loads the dataset, under the lock, and
 * checks it is the same file. Any difference (bytes, flags, category file, code, a missing or
 * damaged seal) takes the full path, which writes a new seal.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { DatasetSeal } from '../lib/adapters/fs-store';
import type { Dataset, DatasetProblem } from '../lib/core/dataset/load';
import type { HistoryFields } from '../lib/core/dataset/types';
import type { DatasetFacts } from '../lib/core/engine/seal';
import { version as packageVersion } from '../../package.json';

/** Names this file's key and facts format; a seal under another name is ignored. */
export const DATASET_SEAL_SCHEME = 'lexpilot-dataset-seal:1';

/** A load with more warnings than this is not sealed (every later start reads the file). */
export const MAX_SEALED_WARNINGS = 200;
const MAX_WARNING_CHARS = 2000;

/** What a dataset seal keeps: the manifest's dataset facts and the load's warnings, as printed. */
export interface SealedDataset extends DatasetFacts {
	warnings: string[];
}

/** What the load of a dataset depended on, besides the file's bytes. */
export interface DatasetReadInputs {
	/** The resolved dataset path. */
	path: string;
	historyFields: Partial<HistoryFields>;
	categoriesPath: string | null;
	/** Names the loader's code (`codeIdentity`); null: nothing is sealed. */
	code: string | null;
}

/** SHA-256 (hex) of a file's bytes, read in 1 MiB pieces so the file is never held whole. */
export function fileSha256(path: string): Promise<string> {
	return new Promise((resolve, reject) => {
		const hash = createHash('sha256');
		createReadStream(path, { highWaterMark: 1 << 20 })
			.on('data', (chunk) => hash.update(chunk))
			.on('error', reject)
			.on('end', () => resolve(hash.digest('hex')));
	});
}

/**
 * This CLI's code, as far as a seal cares: the package version and the size and modification
 * time of the file this module was loaded from (the bundle, `dist/cli/lexpilot.mjs`, which every
 * change of a source file rebuilds). Null when it cannot be told.
 */
export async function codeIdentity(moduleUrl: string = import.meta.url): Promise<string | null> {
	try {
		const s = await stat(fileURLToPath(moduleUrl), { bigint: true });
		return `${packageVersion}:${s.size}:${s.mtimeNs}`;
	} catch {
		return null;
	}
}

/**
 * The key of a dataset seal: the dataset's bytes (their SHA-256), the flags and the category
 * file's bytes (their SHA-256, or null for the built-in map) that shaped its load, the code that
 * loaded it.
 */
export function datasetSealKey(
	inputs: DatasetReadInputs & { code: string },
	datasetSha256: string,
	categoriesSha256: string | null
): string {
	const fields = inputs.historyFields;
	const parts = [
		DATASET_SEAL_SCHEME,
		inputs.code,
		datasetSha256,
		fields.complete ?? null,
		fields.underspecified ?? null,
		categoriesSha256
	];
	return createHash('sha256').update(JSON.stringify(parts)).digest('hex');
}

/** SHA-256 of the `--categories` file, null without one; undefined when it cannot be read. */
export async function categoriesSha256(
	inputs: DatasetReadInputs
): Promise<string | null | undefined> {
	if (inputs.categoriesPath === null) return null;
	return fileSha256(inputs.categoriesPath).catch(() => undefined);
}

/**
 * The facts of the run's dataset seal when they hold for the dataset as it is now: same key (the
 * file's bytes hashed again here, the flags, the category file, the code), the same SHA-256
 * recorded, and facts exactly as {@link sealedDatasetOf} writes them. Else null: a damaged or
 * hand-made seal is ignored, never half used, and a file that cannot be read is left to the
 * full load to report.
 */
export async function matchingSealedDataset(
	seal: DatasetSeal | null,
	inputs: DatasetReadInputs
): Promise<SealedDataset | null> {
	if (seal === null || inputs.code === null) return null;
	const [sha256, categories] = await Promise.all([
		fileSha256(inputs.path).catch(() => null),
		categoriesSha256(inputs)
	]);
	if (sha256 === null || categories === undefined) return null;
	if (seal.key !== datasetSealKey({ ...inputs, code: inputs.code }, sha256, categories)) {
		return null;
	}
	return parseFacts(seal.facts, sha256);
}

/** What to seal of a loaded dataset, or null when it has too many warnings to keep. */
export function sealedDatasetOf(
	dataset: Dataset,
	warnings: readonly DatasetProblem[]
): SealedDataset | null {
	if (warnings.length > MAX_SEALED_WARNINGS) return null;
	const texts = warnings.map((w) => w.text);
	if (texts.some((t) => t.length > MAX_WARNING_CHARS)) return null;
	return {
		sha256: dataset.sha256,
		caseNumbers: dataset.cases.map((c) => c.case_number_value),
		historyFields: { ...dataset.historyFields },
		categories: { ...dataset.categories },
		warnings: texts
	};
}

const isStringRecord = (v: unknown): v is Record<string, string> =>
	typeof v === 'object' &&
	v !== null &&
	!Array.isArray(v) &&
	Object.values(v).every((x) => typeof x === 'string');

/** Facts read back from disk, or null when they are not exactly what `sealedDatasetOf` writes. */
function parseFacts(facts: unknown, sha256: string): SealedDataset | null {
	const f = facts as Partial<SealedDataset> | null;
	if (typeof f !== 'object' || f === null) return null;
	const ok =
		f.sha256 === sha256 &&
		Array.isArray(f.caseNumbers) &&
		f.caseNumbers.length > 0 &&
		f.caseNumbers.every(
			(n) => typeof n === 'string' || (typeof n === 'number' && Number.isSafeInteger(n))
		) &&
		isStringRecord(f.historyFields) &&
		typeof f.historyFields.complete === 'string' &&
		typeof f.historyFields.underspecified === 'string' &&
		isStringRecord(f.categories) &&
		Array.isArray(f.warnings) &&
		f.warnings.length <= MAX_SEALED_WARNINGS &&
		f.warnings.every((w) => typeof w === 'string' && w.length <= MAX_WARNING_CHARS);
	if (!ok) return null;
	return {
		sha256: f.sha256!,
		caseNumbers: f.caseNumbers!,
		historyFields: {
			complete: f.historyFields!.complete,
			underspecified: f.historyFields!.underspecified
		},
		categories: f.categories!,
		warnings: f.warnings!
	};
}

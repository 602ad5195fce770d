/**
 * The one reader and the one writer of `runs/<run-id>/<model>/manifest.json` (PROTOCOL.md §5). Every
 * store, the results reader and the bundle importer go through `readManifestText` /
 * `checkManifest`, so a manifest one of them accepts is accepted by all, and every writer
 * serialises it with `manifestText`, so the same manifest is the same bytes everywhere.
 */
import type { z } from 'zod';
import { CheckpointError } from '../errors';
import { modelDirName, type RunKey } from '../layout';
import { Manifest, type OperationalEntry } from '../records';
import { decodeLayoutText, stripBom } from '../text';
import { coded } from '../said';

/** The manifest file as every writer writes it: two-space JSON and a final line end. */
export function manifestText(manifest: Manifest): string {
	return `${JSON.stringify(manifest, null, 2)}\n`;
}

/**
 * `manifest` with `entry` appended to its `operational_history`, every other field (unknown ones
 * included) as it was: what a store writes back when a resume changed timeout, retries or
 * concurrency.
 */
export function withOperationalEntry(manifest: Manifest, entry: OperationalEntry): Manifest {
	return { ...manifest, operational_history: [...(manifest.operational_history ?? []), entry] };
}

export interface ManifestCheckOptions {
	/**
	 * The folder the manifest sits in: it must name this run id and model folder. Left out when
	 * the place comes from the manifest itself (a store creating it).
	 */
	run?: RunKey;
	/**
	 * Return the value as written (field order, unknown fields), once valid, instead of the
	 * schema's copy: what an import keeps, so export gives the file back unchanged.
	 * @default false
	 */
	asWritten?: boolean;
}

function invalidManifest(label: string, error: z.ZodError): CheckpointError {
	const issue = error.issues[0];
	return new CheckpointError([
		issue.path.length
			? coded('manifest_invalid_field', {
					file: label,
					field: issue.path.join('.'),
					detail: issue.message
				})
			: coded('manifest_invalid', { file: label, detail: issue.message })
	]);
}

/**
 * Validates a manifest value: the schema, each selected case listed once, `model_dir` the folder
 * name of `models.evaluated` (PROTOCOL.md §5), and, with `options.run`, the run and folder it sits in.
 * Throws `CheckpointError` starting with `label` (the file, as the reader names it).
 */
export async function checkManifest(
	value: unknown,
	label: string,
	options: ManifestCheckOptions = {}
): Promise<Manifest> {
	const parsed = Manifest.safeParse(value);
	if (!parsed.success) {
		throw invalidManifest(label, parsed.error);
	}
	const m = parsed.data;
	const { run } = options;
	if (run && (m.run_id !== run.runId || m.model_dir !== run.modelDir)) {
		throw new CheckpointError([
			coded('manifest_other_run', {
				file: label,
				runId: m.run_id,
				modelDir: m.model_dir,
				folderRunId: run.runId,
				folderModelDir: run.modelDir
			})
		]);
	}
	const expectedDir = await modelDirName(m.models.evaluated);
	if (expectedDir !== m.model_dir) {
		throw new CheckpointError([
			coded('manifest_model_dir', {
				file: label,
				model: m.models.evaluated,
				expected: expectedDir,
				modelDir: m.model_dir
			})
		]);
	}
	// Compared as strings, as every reader compares case numbers.
	const selected = m.dataset.selected_case_numbers.map(String);
	// One pass with a set: 4,320 cases by indexOf would be 9 million comparisons at every resume.
	const seen = new Set<string>();
	const dup = selected.find((c) => seen.size === seen.add(c).size);
	if (dup !== undefined) {
		throw new CheckpointError([
			coded('manifest_selected_twice', { file: label, caseNumber: String(dup) })
		]);
	}
	return options.asWritten ? (value as Manifest) : m;
}

/** Reads a manifest file's text (a leading BOM allowed): JSON, then `checkManifest`. */
export async function readManifestText(
	text: string,
	label: string,
	options: ManifestCheckOptions = {}
): Promise<Manifest> {
	let value: unknown;
	try {
		value = JSON.parse(stripBom(text));
	} catch (e) {
		throw new CheckpointError([
			coded('manifest_not_json', { file: label, detail: (e as Error).message })
		]);
	}
	return checkManifest(value, label, options);
}

/** Reads a manifest file's bytes: strict UTF-8 (`decodeLayoutText`), then `readManifestText`. */
export async function readManifestBytes(
	bytes: Uint8Array,
	label: string,
	options: ManifestCheckOptions = {}
): Promise<Manifest> {
	return readManifestText(decodeLayoutText(bytes, label), label, options);
}

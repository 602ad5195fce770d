/**
 * The canonical folder layout of PROTOCOL.md §5, shared by the CLI's output root, export and
 * import: every path of a run is built here, from the run key of `names.ts`.
 */
import { sha256Hex } from './hash';
import { parseRunKey, runKey, type RunKey } from './names';
import { STAGE_PATHS } from './record-names';
import type { StageFile } from './record-names';

export type { RunKey } from './names';

/**
 * `<model>` folder name: the model id made filesystem-safe (`[A-Za-z0-9._-]`, others → `_`,
 * at most 64 characters) + `-` + the first 8 hex digits of SHA-256 of the exact model id.
 */
export async function modelDirName(modelId: string): Promise<string> {
	const safe = modelId.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 64);
	const hash = (await sha256Hex(modelId)).slice(0, 8);
	return `${safe}-${hash}`;
}

/** Run ids become folder names, so they are held to the same safe alphabet. */
export const RUN_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** A model folder of a layout path: the safe alphabet, and never `.` or `..`. */
export function isModelDir(name: string): boolean {
	return /^[A-Za-z0-9._-]+$/.test(name) && name !== '.' && name !== '..';
}

/** Whether `key` is a `runKey` whose run id and model folder the layout allows. */
export function isRunKey(key: string): boolean {
	const run = parseRunKey(key);
	return run !== null && RUN_ID_PATTERN.test(run.runId) && isModelDir(run.modelDir);
}

/** `runs/<runId>/<modelDir>`: the folder of a run's manifest, call log, seals and lock. */
export function runFolder(run: RunKey): string {
	return `runs/${runKey(run)}`;
}

/** `runs/<runId>/<modelDir>/<name>`: a file beside the run's manifest. */
export function runFilePath(run: RunKey, name: string): string {
	return `${runFolder(run)}/${name}`;
}

/** The file name of a run's manifest. */
export const MANIFEST_FILE = 'manifest.json';

export function manifestPath(run: RunKey): string {
	return runFilePath(run, MANIFEST_FILE);
}

export function stageFilePath(run: RunKey, file: StageFile): string {
	const { dir, file: name } = STAGE_PATHS[file];
	return `${dir}/${runKey(run)}/${name}`;
}

/** The file name of a run's call log, beside its manifest. */
export const CALL_LOG_FILE = 'calls.jsonl';

/**
 * `runs/<runId>/<modelDir>/calls.jsonl`: one line per model call (`core/calls`). Not a canonical
 * stage file of PROTOCOL.md §5: optional, never read to resume or score, not an input of any hash.
 */
export function callLogPath(run: RunKey): string {
	return runFilePath(run, CALL_LOG_FILE);
}

/**
 * The CLI's resume seals beside a run's manifest (`adapters/fs-store.ts`): private to the
 * output root it was written in, never part of a bundle. A reader of a copied folder passes
 * over it, since a seal never holds for another root.
 */
export const RESUME_SEALS_FILE = '.resume-seals.json';

/** Whether `path` is `runs/<runId>/<modelDir>/.resume-seals.json` (a valid run and model). */
export function isResumeSealsPath(path: string): boolean {
	const parts = path.split('/');
	return (
		parts.length === 4 &&
		parts[0] === 'runs' &&
		parts[3] === RESUME_SEALS_FILE &&
		RUN_ID_PATTERN.test(parts[1]) &&
		isModelDir(parts[2])
	);
}

/**
 * Parses a path of the canonical layout (forward slashes, relative) into what it names,
 * or returns null for any other path.
 */
export function parseLayoutPath(
	path: string
):
	| { kind: 'manifest'; run: RunKey }
	| { kind: 'calls'; run: RunKey }
	| { kind: 'stage'; run: RunKey; file: StageFile }
	| null {
	const parts = path.split('/');
	if (parts.length !== 4) return null;
	const [top, runId, modelDir, name] = parts;
	if (!RUN_ID_PATTERN.test(runId) || !isModelDir(modelDir)) return null;
	const run = { runId, modelDir };
	if (top === 'runs' && name === MANIFEST_FILE) return { kind: 'manifest', run };
	if (top === 'runs' && name === CALL_LOG_FILE) return { kind: 'calls', run };
	for (const [file, spec] of Object.entries(STAGE_PATHS)) {
		if (spec.dir === top && spec.file === name)
			return { kind: 'stage', run, file: file as StageFile };
	}
	return null;
}

/** `run1 / gpt-x-1a2b3c4d`, for messages. */
export function runLabel(run: RunKey): string {
	return `run ${run.runId} / ${run.modelDir}`;
}

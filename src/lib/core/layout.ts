/**
 * The canonical folder layout of PROTOCOL.md §5, shared by the CLI's output root, export and
 * import: every path of a run is built here, from the run key of `names.ts`.
 */
import { UsageError } from './errors';
import { sha256Hex } from './hash';
import { coded, type CoreCode, type CoreText } from './said';
import { english } from './voice';
import { parseRunKey, runKey, type RunKey } from './names';
import { STAGE_PATHS } from './record-names';
import type { StageFile } from './record-names';

export type { RunKey } from './names';

/**
 * `<model>` folder name: the model id made filesystem-safe (`[A-Za-z0-9._-]`, others → `_`,
 * at most 64 characters) + `-` + the first 8 hex digits of SHA-256 of the exact model id. A
 * name that would not be portable ({@link unportableName}: a leading dot, as a model `..` gives
 * `..-5ec1f7e7`, or a Windows device name such as `nul.x-…`) gets a leading `_`; every other
 * name is exactly what it was before that rule, so saved runs keep their folders.
 */
export async function modelDirName(modelId: string): Promise<string> {
	const safe = modelId.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 64);
	const hash = (await sha256Hex(modelId)).slice(0, 8);
	const name = `${safe}-${hash}`;
	return unportableName(name) === null ? name : `_${name}`;
}

/**
 * Why a folder name of the layout could not be unpacked as itself on every system, or null:
 * `reserved`, a device name Windows reserves (`CON`, `PRN`, `AUX`, `NUL`, `COM0`–`COM9`,
 * `LPT0`–`LPT9`, in any case, with any extension: `nul.txt`, `Com1.jsonl`); `trailing-dot`, a
 * name ending in a dot or a space, which Windows drops (so `run1.` would become `run1`);
 * `leading-dot`, a name starting with a dot, which hides the folder on Unix.
 */
export type UnportableRule = 'reserved' | 'trailing-dot' | 'leading-dot';

const WINDOWS_DEVICE =
	/^(con|prn|aux|nul|com[0-9\u00b9\u00b2\u00b3]|lpt[0-9\u00b9\u00b2\u00b3])(\.|$)/i;

/** The rule `name` breaks (see {@link UnportableRule}), or null when it is portable. */
export function unportableName(name: string): UnportableRule | null {
	if (WINDOWS_DEVICE.test(name)) return 'reserved';
	if (/[. ]$/.test(name)) return 'trailing-dot';
	if (name.startsWith('.')) return 'leading-dot';
	return null;
}

/** Why `name` breaks `rule`, as a coded part (`name_*`) a sentence quotes. */
export function unportableSaid(rule: UnportableRule, name: string): CoreText {
	return coded(UNPORTABLE_CODES[rule], { name });
}

const UNPORTABLE_CODES = {
	reserved: 'name_reserved',
	'trailing-dot': 'name_trailing_dot',
	'leading-dot': 'name_leading_dot'
} as const satisfies Record<UnportableRule, CoreCode>;

/** {@link unportableSaid} in English, `name` quoted as given (the CLI escapes its lines). */
export function unportableText(rule: UnportableRule, name: string): string {
	return english({ code: UNPORTABLE_CODES[rule], params: { name } });
}

/**
 * Why `runId` cannot name a new run, or null when it can: `alphabet` when it does not match
 * {@link RUN_ID_PATTERN}, else the {@link UnportableRule} it breaks. Runs are started (CLI,
 * Run page) and imported only under ids that pass; readers still list what `RUN_ID_PATTERN`
 * accepts, so a run saved under such an id before this rule is not hidden.
 */
export function runIdProblem(runId: string): 'alphabet' | UnportableRule | null {
	if (!RUN_ID_PATTERN.test(runId)) return 'alphabet';
	return unportableName(runId);
}

/**
 * Throws `UsageError` when `runId` cannot name a new run ({@link runIdProblem}): the one refusal
 * of the engine, for a run and for each run of a plan alike, so a plan never takes an id its
 * runs would then refuse. The CLI and the Run page word the same rule for their own fields.
 */
export function checkRunId(runId: string): void {
	const problem = runIdProblem(runId);
	if (problem === 'alphabet') throw new UsageError([coded('opt_run_id_alphabet', { runId })]);
	if (problem !== null) {
		const why = unportableSaid(problem, runId);
		throw new UsageError([coded('opt_run_id_unportable', {}, { why: [why] })]);
	}
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

/** A batch-mode run's folder of rounds beside its manifest (`core/batch/store.ts`). */
export const BATCH_DIR = 'batch';

/** `runs/<runId>/<modelDir>/batch/answers.jsonl`: every answer a round brought back. */
export function batchAnswersPath(run: RunKey): string {
	return runFilePath(run, `${BATCH_DIR}/answers.jsonl`);
}

/** `runs/<runId>/<modelDir>/batch/state.json`: the rounds sent and where they stand. */
export function batchStatePath(run: RunKey): string {
	return runFilePath(run, `${BATCH_DIR}/state.json`);
}

/**
 * `plans/<plan-id>.json`: a plan's spending cap and spend so far (`core/session/spend.ts`),
 * beside `runs/`. The id is the plan's SHA-256 (`planId`), so no name from a plan reaches a path.
 */
export function planSpendPath(planId: string): string {
	if (!/^[0-9a-f]{64}$/.test(planId)) throw new TypeError('a plan id is a SHA-256 in hex');
	return `plans/${planId}.json`;
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

/** The top folder of review files (PROTOCOL.md §5): `reviews/<runId>/<modelDir>/<reviewer file>`. */
export const REVIEWS_DIR = 'reviews';

/**
 * A reviewer's file name: the name as typed is never trusted as a path. Characters outside
 * `[A-Za-z0-9_-]` become `_` (at most 32 kept), then `-` and the first 8 hex digits of the
 * SHA-256 of the exact name, then `.jsonl`; no dot, device name or separator can survive.
 */
export async function reviewerFileName(reviewer: string): Promise<string> {
	const safe = reviewer.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 32);
	const hash = (await sha256Hex(reviewer)).slice(0, 8);
	return `${safe}-${hash}.jsonl`;
}

/**
 * A review file's name as read: any `<name>.jsonl` (docs/CLI.md: a person may name a file they
 * write as they like; the reviewer is in every line), never hidden, never a path. Files this
 * store writes are named by {@link reviewerFileName}.
 */
const REVIEW_FILE = /^[^./\\][^/\\]{0,199}\.jsonl$/;

/** `reviews/<runId>/<modelDir>/<file>`, `file` from {@link reviewerFileName}. */
export function reviewFilePath(run: RunKey, file: string): string {
	return `${REVIEWS_DIR}/${runKey(run)}/${file}`;
}

/** The run of a review file's path, or null for any other path. */
export function parseReviewPath(path: string): { run: RunKey; file: string } | null {
	const parts = path.split('/');
	if (parts.length !== 4 || parts[0] !== REVIEWS_DIR) return null;
	const [, runId, modelDir, file] = parts;
	if (!RUN_ID_PATTERN.test(runId) || !isModelDir(modelDir) || !REVIEW_FILE.test(file)) return null;
	return { run: { runId, modelDir }, file };
}

// Run names live with the run key in names.ts (no dependency), re-exported for layout's readers.
export { runLabel, runName } from './names';

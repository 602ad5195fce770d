/**
 * One name for each thing: the key of a run and the identity of an endpoint. The paths of the
 * canonical layout (`layout.ts`) are built from the same run key. Anything that keys, compares
 * or files a run or an endpoint takes its name from here; `tests/unit/names.spec.ts` fails on a
 * key built by hand elsewhere in `src/`.
 */

/** A run of one model: `runs/<runId>/<modelDir>/` (PROTOCOL.md §5). */
export interface RunKey {
	runId: string;
	modelDir: string;
}

/**
 * `<runId>/<modelDir>`: how lists, selections, series, URLs, locks and stores name a run. Run
 * ids and model folders hold no `/` (`RUN_ID_PATTERN`, `isModelDir` in `layout.ts`), so the key
 * reads back with `parseRunKey`.
 */
export function runKey(run: RunKey): string {
	return `${run.runId}/${run.modelDir}`;
}

/** `runKey` of a run as reports and manifests spell it (`run_id`, `model_dir`). */
export function reportRunKey(run: { run_id: string; model_dir: string }): string {
	return runKey({ runId: run.run_id, modelDir: run.model_dir });
}

/**
 * The run a `runKey` names, or null when `key` has no `/` or nothing on one side of it. Whether
 * the two parts are a valid run id and model folder is the layout's check (`isRunKey`).
 */
export function parseRunKey(key: string): RunKey | null {
	const slash = key.indexOf('/');
	if (slash <= 0 || slash === key.length - 1) return null;
	return { runId: key.slice(0, slash), modelDir: key.slice(slash + 1) };
}

/**
 * The identity of an endpoint: its base URL without trailing slashes, so `…/v1` and `…/v1/`
 * name the same one (PROTOCOL.md §2) wherever endpoints are compared or keyed.
 */
export function endpointKey(baseURL: string): string {
	return baseURL.replace(/\/+$/, '');
}

/** Whether two base URLs name the same endpoint (`endpointKey`). */
export function sameEndpoint(a: string, b: string): boolean {
	return endpointKey(a) === endpointKey(b);
}

/**
 * What names one judge decision of a run (`core/agreement/decisions.ts`): the judged stage as
 * the call log spells it, the case, and where needed the history (LCA), the round (DCG) or the
 * claim's 0-based place (LJP).
 */
export interface DecisionName {
	stage: string;
	case_number: string | number;
	history_type?: string | null;
	round?: number | null;
	claim?: number | null;
}

/**
 * The key of a decision within its run: a JSON array, so no case number can make two decisions
 * share one (a `/` in a case number would, with a joined string). Case numbers compare as text.
 */
export function decisionKey(d: DecisionName): string {
	return JSON.stringify([
		d.stage,
		String(d.case_number),
		d.history_type ?? null,
		d.round ?? null,
		d.claim ?? null
	]);
}

/**
 * A run named to a reader, always run id first, then its model (the model id, or its folder
 * where only that is known): `run1 / gpt-x`. The CLI's plan lines set the two apart with spaces
 * instead (`gap`), as their output always has.
 */
export function runName(runId: string, model: string, gap = ' / '): string {
	return `${runId}${gap}${model}`;
}

/** `run run1 / gpt-x-1a2b3c4d`, for messages. */
export function runLabel(run: RunKey): string {
	return `run ${runName(run.runId, run.modelDir)}`;
}

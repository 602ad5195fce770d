/**
 * The `custom_id` of a batch request (PROTOCOL.md §3, batch mode): stable across rounds and
 * restarts, unique within a run, at most 64 characters, and made only of hashes and short codes,
 * so nothing a dataset or a model wrote reaches a provider's id or a file name.
 *
 * `lp1.<run>.<stage>.<case>.<task>.<prompt>.<occurrence>.<attempt>`:
 * - `run`: 8 hex of the SHA-256 of the run key (`runId/modelDir`), so a line of another run is
 *   told apart;
 * - `stage`, `task`: two-letter codes ({@link STAGE_CODES}, {@link TASK_CODES});
 * - `case`: 10 hex of the SHA-256 of the case_number;
 * - `prompt`: 16 hex of the SHA-256 of the filled prompt, which stands for the history and the
 *   round (another history or round always fills another prompt);
 * - `occurrence`: 0 for the first call of that prompt in the case and stage, 1 for a second
 *   identical one, …;
 * - `attempt`: 1 for the first attempt, 2 after a refused or failed answer, ….
 */
import { sha256Hex } from '../hash';
import type { Task } from '../model/types';
import { runKey, type RunKey } from '../names';

export const CUSTOM_ID_PREFIX = 'lp1';
export const CUSTOM_ID_MAX = 64;

export const STAGE_CODES: Readonly<Record<string, string>> = {
	gen: 'gn',
	lca: 'lc',
	dcg: 'dg',
	'ljp-direct': 'ld',
	'ljp-gold': 'lg',
	'ljp-interaction': 'li'
};

export const TASK_CODES: Readonly<Record<Task, string>> = {
	lexawn: 'la',
	force_ask: 'fa',
	force_judge: 'fj',
	user_standard: 'us',
	judge_lca: 'jl',
	judge_dcg: 'jd',
	judge_extract: 'je'
};

/** Everything that tells one model call of a run from every other. */
export interface CallIdentity {
	run: RunKey;
	stage: string;
	caseNumber: string;
	task: Task;
	prompt: string;
	/** 0-based count of earlier calls with the same prompt in this case and stage. */
	occurrence: number;
	/** 1-based. */
	attempt: number;
}

/** The custom_id of one attempt of one call. */
export async function customId(call: CallIdentity): Promise<string> {
	const stage = STAGE_CODES[call.stage];
	if (stage === undefined) throw new Error(`no batch code for stage ${JSON.stringify(call.stage)}`);
	const [run, kase, prompt] = await Promise.all([
		runHash(call.run),
		sha256Hex(call.caseNumber),
		sha256Hex(call.prompt)
	]);
	return [
		CUSTOM_ID_PREFIX,
		run,
		stage,
		kase.slice(0, 10),
		TASK_CODES[call.task],
		prompt.slice(0, 16),
		call.occurrence,
		call.attempt
	].join('.');
}

/** The `run` part of a run's custom_ids. */
export async function runHash(run: RunKey): Promise<string> {
	return (await sha256Hex(runKey(run))).slice(0, 8);
}

const ID_SHAPE =
	/^lp1\.([0-9a-f]{8})\.[a-z]{2}\.[0-9a-f]{10}\.[a-z]{2}\.[0-9a-f]{16}\.\d{1,4}\.\d{1,3}$/;

/** The run hash of a well-formed custom_id, or null for any other text. */
export function customIdRun(id: string): string | null {
	return ID_SHAPE.exec(id)?.[1] ?? null;
}

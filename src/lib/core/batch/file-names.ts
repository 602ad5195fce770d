/**
 * Names of a round's input files (files mode and uploads): `round-<n>/<endpoint+model>-<i>.jsonl`.
 * The endpoint and model are the user's own flags, but a name is never taken raw: characters
 * outside `[A-Za-z0-9_-]` become `_` (at most 40 kept), then `-` and 8 hex of the SHA-256 of the
 * exact endpoint and model, so two groups never share a name and no dot, separator or device
 * name survives.
 */
import { sha256Hex } from '../hash';
import { endpointKey, runKey, type RunKey } from '../names';

/** `round-<n>`: the folder of one round's files. */
export function roundFolder(round: number): string {
	return `round-${round}`;
}

/** The base name (without `-<i>.jsonl`) of one model and endpoint's input files. */
export async function groupFileBase(baseURL: string, model: string): Promise<string> {
	const host = /^[a-z]+:\/\/([^/?#@]*@)?([^/?#]*)/i.exec(baseURL)?.[2] ?? '';
	const safe = `${host}-${model}`.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 40);
	const hash = (await sha256Hex(`${endpointKey(baseURL)}\0${model}`)).slice(0, 8);
	return `${safe}-${hash}`;
}

/** `round-<n>/<base>-<i>.jsonl`, `i` from 0. */
export function roundFileName(round: number, base: string, index: number): string {
	return `${roundFolder(round)}/${base}-${index}.jsonl`;
}

/** Where files mode writes one run's rounds under the batch folder: `<runId>/<modelDir>`. */
export function runBatchFolder(run: RunKey): string {
	return runKey(run);
}

/** The output file name suggested for an input file (`….jsonl` → `….output.jsonl`). */
export function outputFileName(input: string): string {
	return input.replace(/\.jsonl$/, '.output.jsonl');
}

/**
 * How the browser sends a batch round: the provider's Batch API (`providerSender`, keys from the
 * run's client spec), or files the user downloads, runs on a cluster and uploads back. A files
 * round's input texts are kept here (in the run's worker) and rebuilt from the round's pending
 * requests when a reloaded page finds the round waiting, so they are offered again.
 */
import { roundInputFiles, writeRoundFiles } from '../batch/input-files';
import { providerSender } from '../batch/provider';
import type { RoundSender } from '../batch/sender';
import type { LineSink } from '../batch/split';
import type { BatchSendMode } from '../batch/store';
import type { RunKey } from '../layout';
import type { RoleEndpoint } from '../model/types';
import type { Role } from '../records';

/** A files round's input files, by name: what the page offers for download. */
export type BatchInputs = Map<string, { model: string; lines: number; text: string }>;

/** The files as the page lists them (their texts stay here). */
export function inputList(inputs: BatchInputs): { name: string; model: string; lines: number }[] {
	return [...inputs].map(([name, f]) => ({ name, model: f.model, lines: f.lines }));
}

const discard = async (): Promise<LineSink> => ({ write: async () => {}, close: async () => {} });

/** A files-mode sender whose input files go to `inputs` (replaced at each round). */
export function downloadSender(inputs: BatchInputs): RoundSender {
	return {
		mode: 'files',
		// Only the files' names and sizes are saved here; `collect` builds their texts.
		send: (requests, round) => writeRoundFiles(requests, round, discard),
		async collect(round, pending) {
			inputs.clear();
			for (const file of await roundInputFiles(pending, undefined, round.round)) {
				const lines = file.text.split('\n').length - 1;
				inputs.set(file.name, { model: file.model, lines, text: file.text });
			}
			return null;
		}
	};
}

export function browserSender(
	mode: BatchSendMode,
	run: RunKey,
	endpoints: Record<Role, RoleEndpoint>,
	inputs: BatchInputs,
	/** The run's own retries (the model client's policy), for each call to the provider. */
	retries: number | undefined
): RoundSender {
	return mode === 'provider'
		? providerSender({ run, endpoints, retry: { retries } })
		: downloadSender(inputs);
}

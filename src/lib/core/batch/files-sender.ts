/**
 * Files mode: a round's input files are written (one group per model and endpoint, cut at the
 * limits) for a cluster to run (`vllm run-batch`, a Ray Data LLM job) and the round waits until
 * its outputs are imported (`import.ts`). Where the files go is the caller's: the CLI writes
 * them under its batch folder, the browser offers them for download.
 */
import type { BatchFileLimits } from './limits';
import { writeRoundFiles } from './input-files';
import type { RoundSender } from './sender';
import type { LineSink } from './split';

/** `open(name)`: a sink for the file `round-<n>/<endpoint+model>-<i>.jsonl`. */
export function filesSender(
	open: (name: string) => Promise<LineSink>,
	limits?: BatchFileLimits
): RoundSender {
	return {
		mode: 'files',
		send: (requests, round) => writeRoundFiles(requests, round, open, limits),
		collect: async () => null
	};
}

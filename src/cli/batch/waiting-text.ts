/**
 * What files mode prints when its round is written: the files, the command that runs each on a
 * GPU node (`vllm run-batch`), and the command that imports the outputs and goes on.
 */
import { join } from 'node:path';
import { outputFileName } from '../../lib/core/batch/file-names';
import type { BatchRound } from '../../lib/core/batch/store';
import { escapeControl } from '../../lib/core/text/escape-control';
import { EXIT_WAITING } from './batch-flags';

/** A word as a POSIX shell reads it back. */
export function shellWord(word: string): string {
	return /^[A-Za-z0-9_./:=@%+,-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** `args` less `--batch X` / `--batch=X` (import is files mode). */
function withoutBatchFlag(args: readonly string[]): string[] {
	const out: string[] = [];
	for (let i = 0; i < args.length; i++) {
		if (args[i] === '--batch') i++;
		else if (!args[i].startsWith('--batch=')) out.push(args[i]);
	}
	return out;
}

export function waitingText(round: BatchRound, folder: string, args: readonly string[]): string {
	const mb = (bytes: number) =>
		bytes < 1e6 ? `${(bytes / 1e3).toFixed(1)} kB` : `${(bytes / 1e6).toFixed(1)} MB`;
	const inputs = round.files.map((f) => join(folder, ...f.name.split('/')));
	const outputs = inputs.map(outputFileName);
	const lines = [
		`Round ${round.round} is written: ${round.requests} requests in ${round.files.length} ` +
			`file${round.files.length === 1 ? '' : 's'} ` +
			`under ${join(folder, `round-${round.round}`)}`,
		...round.files.map(
			(f) =>
				`  ${escapeControl(f.name)}  model ${escapeControl(f.model)}, ${f.lines} requests, ${mb(f.bytes)}`
		),
		'',
		'Run each file where the models are served, e.g. on one GPU node with vLLM:',
		...round.files.map(
			(f, i) =>
				`  vllm run-batch -i ${shellWord(inputs[i])} -o ${shellWord(outputs[i])} --model ${escapeControl(shellWord(f.model))}`
		),
		'(several nodes: a Ray Data LLM job, see docs/BATCH.md). Then import the outputs and go on:',
		`  npx lexpilot batch import ${[...outputs, ...withoutBatchFlag(args)].map(shellWord).join(' ')}`,
		`Exit code ${EXIT_WAITING}: the run waits for round ${round.round}'s outputs.`
	];
	return `${lines.map((l) => escapeControl(l)).join('\n')}\n`;
}

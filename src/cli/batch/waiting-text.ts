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

const mb = (bytes: number) =>
	bytes < 1e6 ? `${(bytes / 1e3).toFixed(1)} kB` : `${(bytes / 1e6).toFixed(1)} MB`;

/** A written round's files under `folder`: where each input is and where its output goes. */
export function roundPaths(round: BatchRound, folder: string) {
	return round.files.map((f) => {
		const input = join(folder, ...f.name.split('/'));
		return { file: f, input, output: outputFileName(input) };
	});
}

/** `Round N is written: …` and one line per file. */
export function writtenLines(round: BatchRound, folder: string): string[] {
	return [
		`Round ${round.round} is written: ${round.requests} requests in ${round.files.length} ` +
			`file${round.files.length === 1 ? '' : 's'} ` +
			`under ${join(folder, `round-${round.round}`)}`,
		...round.files.map(
			(f) =>
				`  ${escapeControl(f.name)}  model ${escapeControl(f.model)}, ${f.lines} requests, ${mb(f.bytes)}`
		)
	];
}

/** What to run next: `vllm run-batch` per file, then the one `batch import` of every output. */
export function nextLines(
	paths: readonly ReturnType<typeof roundPaths>[number][],
	args: readonly string[]
): string[] {
	return [
		'Run each file where the models are served, e.g. on one GPU node with vLLM:',
		...paths.map(
			(p) =>
				`  vllm run-batch -i ${shellWord(p.input)} -o ${shellWord(p.output)} --model ${escapeControl(shellWord(p.file.model))}`
		),
		'(several nodes: a Ray Data LLM job, see docs/BATCH.md). Then import the outputs and go on:',
		`  npx lexpilot batch import ${[...paths.map((p) => p.output), ...withoutBatchFlag(args)].map(shellWord).join(' ')}`
	];
}

export function waitingText(round: BatchRound, folder: string, args: readonly string[]): string {
	const lines = [
		...writtenLines(round, folder),
		'',
		...nextLines(roundPaths(round, folder), args),
		`Exit code ${EXIT_WAITING}: the run waits for round ${round.round}'s outputs.`
	];
	return `${lines.map((l) => escapeControl(l)).join('\n')}\n`;
}

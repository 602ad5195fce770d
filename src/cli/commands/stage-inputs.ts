/**
 * What a generation command runs on: the dataset (`stage-dataset.ts`: loaded, or placeholders
 * and a loader when the run's dataset seal holds) and the prompt pack.
 */
import { resolve } from 'node:path';
import { DEFAULT_PROMPT_PACK, type PromptPack } from '../../lib/core/prompts';
import { readValidDataset } from '../dataset-file';
import type { CliIo } from '../types';
import { readPack } from './prompt-pack-file';
import type { StageArgs } from './stage-args';
import { readStageDataset, type StageDataset } from './stage-dataset';

/** What a generation command runs on. */
export interface StageInputs extends StageDataset {
	pack: PromptPack;
}

/** The dataset (its warnings printed) and the prompt pack a generation command runs with. */
export async function readStageInputs(
	args: StageArgs,
	io: CliIo,
	/** Reads and checks the dataset; a run plan passes one that reads it once for all its runs. */
	read: typeof readValidDataset = readValidDataset
): Promise<StageInputs> {
	const { promptsPath } = args;
	const inputs = await readStageDataset(args, io, read);
	// A relative --prompts is taken from the user's directory.
	const pack =
		promptsPath === undefined
			? DEFAULT_PROMPT_PACK
			: await readPack(resolve(io.cwd, promptsPath), promptsPath);
	return { ...inputs, pack };
}

/**
 * The inputs of each run of a plan, in order: each dataset file is read once for all of them,
 * and each warning said once.
 */
export async function readPlanInputs(
	runs: readonly { args: StageArgs }[],
	io: CliIo
): Promise<StageInputs[]> {
	const read = onceEach(readValidDataset);
	const said = new Set<string>();
	const warnOnce = {
		...io,
		stderr: (t: string) => (said.has(t) ? undefined : (said.add(t), io.stderr(t)))
	};
	const inputs: StageInputs[] = [];
	for (const { args } of runs) inputs.push(await readStageInputs(args, warnOnce, read));
	return inputs;
}

/** `fn`, called once per distinct first argument; the runs of a plan share one dataset read. */
function onceEach<A extends unknown[], R>(fn: (key: string, ...rest: A) => Promise<R>) {
	const done = new Map<string, Promise<R>>();
	return (key: string, ...rest: A): Promise<R> => {
		let result = done.get(key);
		if (!result) {
			result = fn(key, ...rest);
			done.set(key, result);
			result.catch(() => done.delete(key));
		}
		return result;
	};
}

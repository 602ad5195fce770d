/**
 * Which dataset file a command reads: `--dataset`, else `LEXPILOT_DATASET`, else
 * `LexPilot_release_multiturn.json` in the user's directory, as the Python harness's users
 * expect. A relative path resolves from the directory the command was typed in.
 */
import { resolve } from 'node:path';
import { escapeControl } from '../lib/core/text/escape-control';

/** The released multi-turn benchmark's file name: the dataset used when none is named. */
export const DEFAULT_DATASET = 'LexPilot_release_multiturn.json';

/** A dataset file chosen for a command, with what to say when it is not there. */
export interface DatasetChoice {
	/** Absolute path. */
	path: string;
	/** The file as the user named it (or the default name), for messages. */
	label: string;
	/** Where the name came from. */
	from: 'flag' | 'env' | 'default';
	/** The whole message for a file that does not exist: what was looked for and how to pass another. */
	notFound: string;
}

/**
 * `flag` (the `--dataset` value) beats `envValue` (`LEXPILOT_DATASET`, blank counts as unset),
 * which beats the default file in `cwd`.
 */
export function chooseDataset(
	flag: string | undefined,
	envValue: string | undefined,
	cwd: string
): DatasetChoice {
	const fromEnv = envValue?.trim() ? envValue.trim() : undefined;
	const label = flag ?? fromEnv ?? DEFAULT_DATASET;
	const path = resolve(cwd, label);
	const from = flag !== undefined ? 'flag' : fromEnv !== undefined ? 'env' : 'default';
	// Typed paths are quoted escaped, like any other text the CLI did not write.
	const shown = escapeControl(label);
	const lookedFor = path === label ? '' : `; looked for ${escapeControl(path)}`;
	const notFound =
		from === 'flag'
			? `dataset file ${shown} not found (check --dataset${lookedFor})`
			: from === 'env'
				? `dataset file ${shown}, named by LEXPILOT_DATASET, not found${lookedFor ? ` (${lookedFor.slice(2)})` : ''}. Point LEXPILOT_DATASET ` +
					'at the dataset file, or pass --dataset FILE.'
				: `no dataset: looked for ${DEFAULT_DATASET} (the default) in ${escapeControl(cwd)} and it is not there. ` +
					'Pass --dataset FILE (e.g. --dataset static/sample/lexpilot-sample.json, the synthetic ' +
					'sample) or set LEXPILOT_DATASET.';
	return { path, label, from, notFound };
}

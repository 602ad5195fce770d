/** `--prompts FILE`: a prompt pack exported from the workbench's Prompts page, read and checked. */
import { readFile } from 'node:fs/promises';
import { parsePromptPack, type PromptPack } from '../../lib/core/prompts';
import { UsageError } from '../../lib/core/errors';
import { escapeControl } from '../../lib/core/text/escape-control';

/** Reads a prompt pack file (`path`, resolved; `label` as the user typed it); every problem names it. */
export async function readPack(path: string, label: string): Promise<PromptPack> {
	let text: string;
	try {
		text = await readFile(path, 'utf8');
	} catch (e) {
		throw new UsageError(
			`--prompts ${escapeControl(label)}: cannot read the file (${escapeControl((e as Error).message)})`
		);
	}
	try {
		return parsePromptPack(text);
	} catch (e) {
		throw new UsageError(`--prompts ${escapeControl(label)}: ${(e as Error).message}`);
	}
}

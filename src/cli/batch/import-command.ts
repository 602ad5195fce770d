/**
 * `lexpilot batch import OUTPUT… <the run's flags>`: reads the output files of the run's waiting
 * round (OpenAI / vLLM batch output format) a line at a time, never a file whole, refuses the
 * whole import when a line is torn, of another run, not asked or answered twice (file and line
 * named, nothing saved), saves the answers (an answer past its bound as the failed attempt it
 * is, PROTOCOL.md §3), then goes on as `run --batch files` does: the next round written (exit 3)
 * or the run finished (exit 0). Run again after it went through, it says the round is already
 * imported and goes on the same way (lines a run took before are passed over). With a plan's
 * flags (`--model A --model B`, `--repetitions`, `--plan`), one import goes to every run of the
 * plan (`plan-import.ts`).
 */
import { open, stat, type FileHandle } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { importBatchOutputs, type OutputFile } from '../../lib/core/batch/import';
import { UsageError } from '../../lib/core/errors';
import { escapeControl } from '../../lib/core/text/escape-control';
import { parseStages, RUN_OPTIONS } from '../commands/run';
import { readStageInputs, stageArgsFrom } from '../commands/stage';
import type { CliIo } from '../types';
import { batchFolder, batchLimits } from './batch-flags';
import { batchRunOptions, runBatchCli } from './run-batch';
import { importedText, importIntoPlan } from './plan-import';
import { isPlan } from '../plan/plan-args';

// A plan's flags, as `run` takes them: one import goes on with every run of the plan.
const OPTIONS = { ...RUN_OPTIONS, 'allow-missing': { type: 'boolean' } } as const;

/** Largest output file read (kept from when a file was read as one string). */
const MAX_FILE_BYTES = 500 * 1024 * 1024;

export async function batchImport(args: string[], io: CliIo): Promise<number> {
	const { values, positionals } = parseArgs({
		args,
		options: OPTIONS,
		strict: true,
		allowPositionals: true
	});
	const {
		stages: stageList,
		batch,
		'batch-dir': dir,
		'batch-max-tokens': maxTokens,
		'allow-missing': allowMissing,
		model: models = [],
		repetitions,
		plan,
		...flags
	} = values;
	if (batch !== undefined && batch !== 'files') {
		throw new UsageError(
			'batch import continues a run in files mode; leave out --batch or say --batch files'
		);
	}
	if (positionals.length === 0) throw new UsageError("batch import needs the round's output files");
	// Every output file opened and checked before anything else, kept open to the command's end.
	const handles: FileHandle[] = [];
	try {
		const files: OutputFile[] = [];
		for (const name of positionals) files.push(await outputFile(name, io, handles));
		const stages = parseStages(stageList);
		const limits = batchLimits(maxTokens);
		const rest = args.filter((a) => !positionals.includes(a));
		const planFlags = { models, repetitions, plan };
		if (isPlan(planFlags)) {
			const shared = { stages, mode: 'files' as const, batchDir: dir, limits, args: rest };
			return await importIntoPlan(files, flags, planFlags, shared, allowMissing === true, io);
		}
		const parsed = stageArgsFrom({ ...flags, model: models[0] }, io);
		const inputs = await readStageInputs(parsed, io);
		const cli = {
			parsed,
			inputs,
			stages,
			mode: 'files' as const,
			folder: batchFolder(dir, parsed.options.outputRoot, io.cwd),
			limits,
			args: rest
		};
		const got = await importBatchOutputs(await batchRunOptions(cli, io), files, { allowMissing });
		io.stdout(importedText(null, got));
		return await runBatchCli(cli, io);
	} finally {
		await Promise.all(handles.map((h) => h.close().catch(() => {})));
	}
}

/**
 * One output file, opened and checked: a regular file within the size read here, read a line
 * at a time by the import (a stream over the open file: what was checked is what is read).
 */
async function outputFile(name: string, io: CliIo, handles: FileHandle[]): Promise<OutputFile> {
	const path = resolve(io.cwd, name);
	const info = await stat(path).catch(() => null);
	if (!info) throw new UsageError(`${escapeControl(name)}: no such file`);
	// A device, a pipe or a folder has no size to check (`/dev/zero` says 0 and never ends); a
	// pipe is not even opened (opening one waits for a writer).
	const notRegular = () =>
		new UsageError(
			`${escapeControl(name)}: not a regular file; give the output file a round came back in`
		);
	if (!info.isFile()) throw notRegular();
	const handle = await open(path, 'r');
	handles.push(handle);
	const opened = await handle.stat();
	if (!opened.isFile()) throw notRegular();
	const size = opened.size;
	if (size > MAX_FILE_BYTES) {
		throw new UsageError(
			`${escapeControl(name)}: ${size} bytes, more than an output file read here (${MAX_FILE_BYTES})`
		);
	}
	return { name, open: () => handle.createReadStream({ autoClose: false, start: 0 }) };
}

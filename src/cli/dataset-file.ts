/** Reading a dataset (and category map) from disk for the CLI: Node-only, thin over the core loader. */
import { readFile } from 'node:fs/promises';
import { parseCategoryMap } from '../lib/core/dataset/categories';
import {
	loadDataset,
	type Dataset,
	type DatasetProblem,
	type LoadResult
} from '../lib/core/dataset/load';
import type { CategoryMap, HistoryFields } from '../lib/core/dataset/types';
import { UsageError } from '../lib/core/errors';
import { escapeControl } from '../lib/core/text/escape-control';

export interface DatasetFileOptions {
	/** History fields named on the command line. */
	historyFields?: Partial<HistoryFields>;
	/** A category map file, or null/undefined for the default map. */
	categoriesPath?: string | null;
	/** How to name the file in messages (what the user typed). @default the path */
	label?: string;
	/** The message when the file does not exist (see `chooseDataset`). @default names the label */
	notFound?: string;
}

/** Reads and validates a dataset file; the result says what is wrong, file errors throw UsageError. */
export async function readDatasetFile(
	path: string,
	options: DatasetFileOptions = {}
): Promise<LoadResult> {
	const label = options.label ?? path;
	const bytes = await readBytes(
		path,
		`dataset file ${escapeControl(label)}`,
		'--dataset',
		options.notFound
	);
	const categories = options.categoriesPath
		? await readCategoryFile(options.categoriesPath)
		: undefined;
	return loadDataset(bytes, {
		fileName: label,
		...(options.historyFields ? { historyFields: options.historyFields } : {}),
		...(categories ? { categories } : {})
	});
}

/**
 * For generation commands: the dataset, or a UsageError (exit 2) listing every problem, so no
 * API call is made for an invalid file.
 */
export async function readValidDataset(
	path: string,
	options: DatasetFileOptions = {}
): Promise<{ dataset: Dataset; warnings: DatasetProblem[] }> {
	const result = await readDatasetFile(path, options);
	if (result.ok) return { dataset: result.dataset, warnings: result.warnings };
	throw new UsageError(formatInvalidDataset(options.label ?? path, result));
}

/** Every problem, one a line, with how to fix a history-field mapping when that is the trouble. */
export function formatInvalidDataset(
	label: string,
	result: Extract<LoadResult, { ok: false }>
): string {
	// The total, not the lines listed: past a few hundred problems the rest are only counted.
	const n = result.problemCount;
	const lines = [
		`${escapeControl(label)} is not a valid LexPilot dataset (${n} problem${n === 1 ? '' : 's'}):`,
		...result.problems.map((p) => `  ${p.text}`)
	];
	if (result.mapping) {
		const { candidates, detected } = result.mapping;
		const example = [
			`--complete-field ${escapeControl(detected.complete ?? candidates[0] ?? 'NAME')}`,
			`--underspecified-field ${escapeControl(detected.underspecified ?? candidates[1] ?? 'NAME')}`
		].join(' ');
		lines.push(`Map the history fields, e.g.: ${example}`);
	}
	return lines.join('\n');
}

/** Reads a category map file (`--categories`), with a UsageError naming it when it is wrong. */
export async function readCategoryFile(path: string): Promise<CategoryMap> {
	const bytes = await readBytes(path, `category map ${escapeControl(path)}`, '--categories');
	try {
		return parseCategoryMap(bytes);
	} catch (e) {
		if (e instanceof UsageError) throw new UsageError(`${escapeControl(path)}: ${e.message}`);
		throw e;
	}
}

async function readBytes(
	path: string,
	what: string,
	flag: string,
	notFound?: string
): Promise<Uint8Array> {
	try {
		// A view of the Buffer, not a copy: a fresh copy of a 50 MB file costs as much as reading it.
		const buffer = await readFile(path);
		return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
	} catch (e) {
		const code = (e as NodeJS.ErrnoException).code;
		if (code === 'ENOENT') throw new UsageError(notFound ?? `${what} not found (check ${flag})`);
		if (code === 'EISDIR') throw new UsageError(`${what} is a folder; ${flag} needs a file`);
		if (code === 'EACCES') throw new UsageError(`${what} cannot be read: permission denied`);
		throw new UsageError(`${what} cannot be read: ${escapeControl((e as Error).message)}`);
	}
}

/**
 * The runs kept in IndexedDB seen as files of the canonical layout (PROTOCOL.md §5), so the browser
 * scores them with the very `computeReport` the CLI runs over its output folder, exports them
 * byte for byte, and Inspect reads one case of them.
 */
import { parseCallLog } from '../core/calls/log';
import type { CallLogEntry } from '../core/calls/schema';
import { CheckpointError } from '../core/errors';
import { coded } from '../core/said';
import {
	callLogPath,
	manifestPath,
	parseReviewPath,
	parseLayoutPath,
	stageFilePath,
	type RunKey
} from '../core/layout';
import { STAGE_FILE_NAMES, type StageFile } from '../core/record-names';
import { STAGE_FILES, type AnyRecord, type RecordsByFile } from '../core/records';
import { parseJsonlLine } from '../core/jsonl';
import type { LayoutSource } from '../core/results/source';
import { runLabel } from '../core/store/checks';
import { manifestText } from '../core/store/manifest-file';
import type { CaseRecords } from '../core/store/types';
import { parseRecordRows } from './idb-parse';
import { reviewFiles } from './idb-reviews';
import type { IdbStore } from './idb-store';

const ROOT = 'browser storage';

const sameRun = (a: RunKey, b: RunKey) => a.runId === b.runId && a.modelDir === b.modelDir;

/** Lines as a file holds them: each ending in `\n`; '' for none. */
const fileText = (lines: readonly string[]) => lines.map((line) => `${line}\n`).join('');

export interface IdbSourceOptions {
	/** Only these runs; every stored run when left out. */
	runs?: readonly RunKey[];
}

/**
 * A `LayoutSource` over the runs in IndexedDB: a manifest per run and each stage file that holds
 * at least one record. Reads happen when asked, so a report over a run that is still being
 * written sees the records saved so far.
 */
export function idbLayoutSource(store: IdbStore, options: IdbSourceOptions = {}): LayoutSource {
	const wanted = (run: RunKey) => !options.runs || options.runs.some((r) => sameRun(r, run));
	const missing = (path: string) =>
		new CheckpointError([coded('source_no_file', { file: `browser storage: ${path}` })]);
	return {
		root: ROOT,
		// Which files hold something, not how much: the runs side by side, and no row counted.
		async list() {
			const runs = (await store.savedManifests()).filter(({ run }) => wanted(run));
			const perRun = await Promise.all(
				runs.map(async ({ run }) => {
					const [held, calls, reviews] = await Promise.all([
						Promise.all(STAGE_FILE_NAMES.map((file) => store.holds(run, file))),
						store.holds(run, null),
						reviewFiles(store, run)
					]);
					return [
						manifestPath(run),
						...STAGE_FILE_NAMES.filter((_, i) => held[i]).map((file) => stageFilePath(run, file)),
						...(calls ? [callLogPath(run)] : []),
						...reviews.keys()
					];
				})
			);
			return perRun.flat();
		},
		// The totals kept with the run: the Results page then reads no call log (tens of MB each).
		async callTotals(run, fileLabel) {
			if (!wanted(run)) throw missing(callLogPath(run));
			return store.callTotals(run, fileLabel);
		},
		// Each row parsed and checked as the line of the file it is, named as reading the text names it.
		async records(path) {
			const named = parseLayoutPath(path);
			if (named?.kind !== 'stage' || !wanted(named.run)) throw missing(path);
			const { schema } = STAGE_FILES[named.file];
			const file = `${ROOT}/${path}`;
			return (await store.recordLines(named.run, named.file)).map((json, i) =>
				parseJsonlLine(json, schema, { file, line: i + 1 })
			);
		},
		async read(path) {
			const review = parseReviewPath(path);
			if (review && wanted(review.run)) {
				const text = (await reviewFiles(store, review.run)).get(path);
				if (text === undefined) throw missing(path);
				return text;
			}
			const named = parseLayoutPath(path);
			if (!named || !wanted(named.run)) throw missing(path);
			if (named.kind === 'stage') return fileText(await store.recordLines(named.run, named.file));
			if (named.kind === 'calls') return fileText(await store.callLines(named.run));
			const manifest = await store.savedManifest(named.run);
			if (!manifest) throw missing(path);
			return manifestText(manifest);
		}
	};
}

/** Every file of one run, path → text, in layout order (manifest first): what export zips. */
export async function readRunFiles(store: IdbStore, run: RunKey): Promise<Map<string, string>> {
	const files = new Map<string, string>();
	const manifest = await store.savedManifest(run);
	if (!manifest) throw new CheckpointError([coded('run_not_in_browser', { run: runLabel(run) })]);
	files.set(manifestPath(run), manifestText(manifest));
	for (const file of STAGE_FILE_NAMES) {
		const text = fileText(await store.recordLines(run, file));
		if (text) files.set(stageFilePath(run, file), text);
	}
	const calls = fileText(await store.callLines(run));
	if (calls) files.set(callLogPath(run), calls);
	for (const [path, text] of await reviewFiles(store, run)) files.set(path, text);
	return files;
}

/** Every file of several runs, path → text, run after run: the content of an export. */
export async function readRunsFiles(
	store: IdbStore,
	runs: readonly RunKey[]
): Promise<Map<string, string>> {
	const files = new Map<string, string>();
	for (const run of runs) {
		for (const [path, text] of await readRunFiles(store, run)) files.set(path, text);
	}
	return files;
}

/** The files of a run with their size in bytes (UTF-8), for single-file downloads. */
export async function runFileSizes(
	store: IdbStore,
	run: RunKey
): Promise<{ path: string; bytes: number }[]> {
	const encoder = new TextEncoder();
	return [...(await readRunFiles(store, run))].map(([path, text]) => ({
		path,
		bytes: encoder.encode(text).length
	}));
}

/** The records of one case in every stage file of a run, validated, in stored order. */
export async function readCaseRecords(
	store: IdbStore,
	run: RunKey,
	caseNumber: string
): Promise<CaseRecords> {
	const out = {} as Record<StageFile, AnyRecord[]>;
	for (const file of STAGE_FILE_NAMES) {
		const rows = await store.caseRows(run, file, caseNumber);
		out[file] = parseRecordRows(
			run,
			file,
			rows.sort((a, b) => a.seq - b.seq),
			true
		);
	}
	return out as unknown as CaseRecords;
}

/** Every record of a run by stage file, validated, in stored order: what Inspect's case table reads. */
export async function readRunRecords(store: IdbStore, run: RunKey): Promise<RecordsByFile> {
	const files = await Promise.all(STAGE_FILE_NAMES.map((file) => store.readRecords(run, file)));
	return Object.fromEntries(
		STAGE_FILE_NAMES.map((file, i) => [file, files[i]])
	) as unknown as RecordsByFile;
}

/**
 * The call-log lines of one case of a run, validated, in written order: what Inspect shows under
 * each response. [] when the run has no call log.
 */
export async function readCaseCalls(
	store: IdbStore,
	run: RunKey,
	caseNumber: string
): Promise<CallLogEntry[]> {
	return parseCallLog(
		fileText(await store.caseCallLines(run, caseNumber)),
		`browser storage: ${callLogPath(run)} (case_number ${caseNumber})`
	);
}

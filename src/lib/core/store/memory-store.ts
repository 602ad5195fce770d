/**
 * A `CheckpointStore` held in memory as the text of the canonical layout (PROTOCOL.md §5), so it reads
 * and fails exactly like the files the CLI writes. Used by tests, the simulated demo, and as the
 * staging area of export and import (`toFiles` / `fromFiles`).
 */
import { parseCallLog } from '../calls/log';
import type { CallLogEntry } from '../calls/schema';
import type { CallLog } from '../calls/types';
import {
	BatchState,
	batchAnswerLine,
	parseBatchAnswers,
	type BatchStore,
	type SavedBatchAnswer
} from '../batch/store';
import { CheckpointError, RunLockedError } from '../errors';
import { parseJsonl, toJsonLine } from '../jsonl';
import { stripBom } from '../text';
import {
	batchAnswersPath,
	batchStatePath,
	planSpendPath,
	callLogPath,
	manifestPath,
	parseLayoutPath,
	stageFilePath,
	type RunKey
} from '../layout';
import { runKey } from '../names';
import {
	STAGE_FILES,
	STAGE_FILE_NAMES,
	type AnyRecord,
	type Manifest,
	type OperationalEntry,
	type StageFile
} from '../records';
import { checkRecordToAppend, compareRunKeys, runLabel } from './checks';
import {
	checkManifest,
	manifestText,
	readManifestText,
	withOperationalEntry
} from './manifest-file';
import { recordHead, type RecordHead } from './heads';
import { aboutRecord, orderByIdentity, recordIdentity } from './identity';
import { coded } from '../said';
import { parsePlanSpend, type PlanSpend, type PlanSpendStore } from '../session/spend';
import type { CheckpointStore } from './types';

export class MemoryStore implements CheckpointStore, CallLog, BatchStore, PlanSpendStore {
	/** Path → content, kept as appended chunks so a long run does not copy its text per record. */
	readonly #files = new Map<string, string[]>();
	/** Identities per stage-file path, built on the first append and kept while appending. */
	readonly #identities = new Map<string, Set<string>>();
	readonly #locks = new Set<string>();
	/**
	 * Heads per stage-file path, each computed on first use and kept while the file only grows:
	 * a run that resumes a file it wrote itself (gen, then ljp-interaction) hashes no record twice.
	 */
	readonly #heads = new Map<string, (() => Promise<RecordHead>)[]>();

	/** A store holding these files of the canonical layout (path → UTF-8 text). */
	static fromFiles(files: Iterable<readonly [string, string]>): MemoryStore {
		const store = new MemoryStore();
		for (const [path, text] of files) store.#files.set(path, [text]);
		return store;
	}

	/** Every file of the canonical layout this store holds, path → text. */
	toFiles(): Map<string, string> {
		return new Map([...this.#files].map(([path, chunks]) => [path, chunks.join('')]));
	}

	async lock(run: RunKey): Promise<() => Promise<void>> {
		const name = runKey(run);
		if (this.#locks.has(name)) {
			throw new RunLockedError([coded('run_locked_session', { run: runLabel(run) })]);
		}
		this.#locks.add(name);
		let held = true;
		return async () => {
			if (held) this.#locks.delete(name);
			held = false;
		};
	}

	async readManifest(run: RunKey): Promise<Manifest | null> {
		const path = manifestPath(run);
		const chunks = this.#files.get(path);
		if (!chunks) return null;
		return readManifestText(chunks.join(''), path, { run });
	}

	async createManifest(manifest: Manifest): Promise<void> {
		const run = { runId: manifest.run_id, modelDir: manifest.model_dir };
		const path = manifestPath(run);
		await checkManifest(manifest, path);
		if (this.#files.has(path)) {
			throw new CheckpointError([coded('manifest_exists', { file: path })]);
		}
		this.#files.set(path, [manifestText(manifest)]);
	}

	async recordOperational(run: RunKey, entry: OperationalEntry): Promise<void> {
		const path = manifestPath(run);
		const chunks = this.#files.get(path);
		if (!chunks) throw new CheckpointError([coded('manifest_missing_for_resume', { file: path })]);
		const saved = await readManifestText(chunks.join(''), path, { run, asWritten: true });
		const next = await checkManifest(withOperationalEntry(saved, entry), path, {
			run,
			asWritten: true
		});
		this.#files.set(path, [manifestText(next)]);
	}

	async readRecords(run: RunKey, file: StageFile): Promise<AnyRecord[]> {
		return this.#read(run, file);
	}

	async readHeads(run: RunKey, file: StageFile): Promise<RecordHead[]> {
		const path = stageFilePath(run, file);
		let heads = this.#heads.get(path);
		if (!heads) {
			heads = this.#read(run, file).map((record) => once(() => recordHead(file, record)));
			this.#heads.set(path, heads);
		}
		return Promise.all(heads.map((head) => head()));
	}

	async appendRecord(run: RunKey, file: StageFile, record: AnyRecord): Promise<void> {
		const path = stageFilePath(run, file);
		checkRecordToAppend(file, record, path);
		// No await from here on: concurrent appends of one case cannot both pass the check.
		const identities = this.#identitiesOf(run, file);
		const identity = recordIdentity(file, record);
		if (identities.has(identity)) {
			throw aboutRecord('record_saved_already', path, identity);
		}
		const line = toJsonLine(record);
		const chunks = this.#files.get(path);
		if (chunks) chunks.push(line);
		else this.#files.set(path, [line]);
		identities.add(identity);
		// The head of the line as saved, should the caller change its object afterwards.
		const saved = JSON.parse(line) as AnyRecord;
		this.#heads.get(path)?.push(once(() => recordHead(file, saved)));
	}

	async appendCall(run: RunKey, line: string): Promise<void> {
		const path = callLogPath(run);
		const chunks = this.#files.get(path);
		if (chunks) chunks.push(line);
		else this.#files.set(path, [line]);
	}

	async readCalls(run: RunKey): Promise<CallLogEntry[]> {
		const chunks = this.#files.get(callLogPath(run));
		return chunks ? parseCallLog(chunks.join(''), callLogPath(run)) : [];
	}

	async readPlanSpend(planId: string): Promise<PlanSpend | null> {
		const text = this.#files.get(planSpendPath(planId))?.join('');
		return text === undefined ? null : parsePlanSpend(JSON.parse(text));
	}

	async writePlanSpend(planId: string, spend: PlanSpend): Promise<void> {
		this.#files.set(planSpendPath(planId), [`${JSON.stringify(spend)}\n`]);
	}

	async readBatchState(run: RunKey): Promise<BatchState | null> {
		const text = this.#files.get(batchStatePath(run))?.join('');
		return text === undefined ? null : BatchState.parse(JSON.parse(text));
	}

	async writeBatchState(run: RunKey, state: BatchState): Promise<void> {
		this.#files.set(batchStatePath(run), [`${JSON.stringify(BatchState.parse(state))}\n`]);
	}

	async appendBatchAnswers(run: RunKey, answers: readonly SavedBatchAnswer[]): Promise<void> {
		const path = batchAnswersPath(run);
		const chunks = this.#files.get(path) ?? [];
		chunks.push(...answers.map(batchAnswerLine));
		this.#files.set(path, chunks);
	}

	async readBatchAnswers(run: RunKey): Promise<SavedBatchAnswer[]> {
		const path = batchAnswersPath(run);
		const chunks = this.#files.get(path);
		return chunks ? parseBatchAnswers(chunks.join(''), path) : [];
	}

	async listRuns(): Promise<RunKey[]> {
		const runs: RunKey[] = [];
		for (const path of this.#files.keys()) {
			const named = parseLayoutPath(path);
			if (named?.kind === 'manifest') runs.push(named.run);
		}
		return runs.sort(compareRunKeys);
	}

	async deleteRun(run: RunKey): Promise<void> {
		if (this.#locks.has(runKey(run))) {
			throw new RunLockedError([coded('run_delete_written', { run: runLabel(run) })]);
		}
		this.#files.delete(manifestPath(run));
		this.#files.delete(callLogPath(run));
		this.#files.delete(batchStatePath(run));
		this.#files.delete(batchAnswersPath(run));
		for (const file of STAGE_FILE_NAMES) {
			this.#files.delete(stageFilePath(run, file));
			this.#identities.delete(stageFilePath(run, file));
			this.#heads.delete(stageFilePath(run, file));
		}
	}

	async finalizeStageFile(run: RunKey, file: StageFile, order: readonly string[]): Promise<void> {
		const path = stageFilePath(run, file);
		const chunks = this.#files.get(path);
		if (!chunks) return;
		const text = chunks.join('');
		const records = parseJsonl(text, STAGE_FILES[file].schema, path) as AnyRecord[];
		const body = stripBom(text);
		const lines = body.split('\n').slice(0, records.length);
		const rows = lines.map((line, i) => ({ line, identity: recordIdentity(file, records[i]) }));
		const sorted = orderByIdentity(rows, (row) => row.identity, order, path);
		this.#files.set(path, [sorted.map((row) => `${row.line}\n`).join('')]);
		this.#heads.delete(path);
	}

	#read(run: RunKey, file: StageFile): AnyRecord[] {
		const path = stageFilePath(run, file);
		const chunks = this.#files.get(path);
		if (!chunks) return [];
		return parseJsonl(chunks.join(''), STAGE_FILES[file].schema, path) as AnyRecord[];
	}

	#identitiesOf(run: RunKey, file: StageFile): Set<string> {
		const path = stageFilePath(run, file);
		let identities = this.#identities.get(path);
		if (!identities) {
			// Reading first also refuses to append after a malformed or cut-off line.
			const records = this.#read(run, file);
			identities = new Set(records.map((r) => recordIdentity(file, r)));
			this.#identities.set(path, identities);
		}
		return identities;
	}
}

/** `compute` run at most once, on the first call. */
function once<T>(compute: () => Promise<T>): () => Promise<T> {
	let value: Promise<T> | null = null;
	return () => (value ??= compute());
}

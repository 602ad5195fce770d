/**
 * The CLI's `CheckpointStore`: the canonical layout of `PROTOCOL.md §5` under an output root. This class
 * wires the parts, one module each beside it:
 *
 * - `fs-store-lock.ts`: the run's `.lock` file, stale locks taken over (`fs-store-process.ts`:
 *   a live writer told from a zombie or a reused pid);
 * - `fs-store-io.ts`: writes whole or absent (temporary file, sync, rename);
 * - `fs-store-stage-files.ts`: appends synced line by line, kept file states and heads;
 * - `fs-store-reorder.ts`: `finalizeStageFile`, lines moved as bytes;
 * - `fs-store-torn.ts`: a cut-off last line moved aside (stage files) or dropped (call log);
 * - `fs-store-links.ts`: symbolic links in the layout refused, never followed;
 * - `fs-store-seals.ts`: resume seals and the dataset seal;
 * - `fs-store-calls.ts`: the call log;
 * - `fs-store-manifest.ts`: `manifest.json`;
 * - `fs-store-batch.ts`: a batch-mode run's `batch/state.json` and `batch/answers.jsonl`.
 */
import { promises as fs } from 'node:fs';
import { dirname, join } from 'node:path';
import type { BatchState, BatchStore, SavedBatchAnswer } from '../core/batch/store';
import type { CallLog } from '../core/calls/types';
import {
	batchStatePath,
	manifestPath,
	RUN_ID_PATTERN,
	runFolder,
	stageFilePath,
	type RunKey
} from '../core/layout';
import {
	STAGE_FILE_NAMES,
	type AnyRecord,
	type Manifest,
	type OperationalEntry,
	type StageFile
} from '../core/records';
import { runKey } from '../core/names';
import { compareRunKeys, runLabel } from '../core/store/checks';
import { escapeControl } from '../core/text/escape-control';
import type { CheckpointStore } from '../core/store/types';
import type { PlanSpend, PlanSpendStore } from '../core/session/spend';
import { BatchFiles } from './fs-store-batch';
import { CallLogFiles } from './fs-store-calls';
import { SerialQueues, type StoreContext } from './fs-store-context';
import { errorCode, removeIfEmpty, unwritableError } from './fs-store-io';
import { acquireLock, lockFilePath, releaseLock, removeDeadTemps } from './fs-store-lock';
import { refuseLinks } from './fs-store-links';
import { createManifestFile, readManifestFile, recordOperationalFile } from './fs-store-manifest';
import { procProbe, type ProcessProbe } from './fs-store-process';
import { reorderInTurn } from './fs-store-reorder';
import { ResumeSeals, sealFilePath, type DatasetSeal } from './fs-store-seals';
import { StageFiles } from './fs-store-stage-files';

export { lockFilePath, type LockInfo } from './fs-store-lock';
export { sealFilePath, type DatasetSeal } from './fs-store-seals';

/** Options of {@link FsStore}. */
export interface FsStoreOptions {
	/**
	 * Told about repairs made on its own: a stale lock taken over, a torn last line moved aside.
	 * The CLI prints these as notes. @default ignored
	 */
	onNotice?: (message: string) => void;
	/**
	 * How the lock tells a live writer from a stale lock: `/proc` and `kill(pid, 0)`
	 * (`fs-store-process.ts`); tests give a fake. @default procProbe()
	 */
	processes?: ProcessProbe;
	/**
	 * Written into the run's seal file with every stage seal this store writes (under the run's
	 * lock), for {@link FsStore.readDatasetSeal} to find at a later start. @default none
	 */
	datasetSeal?: DatasetSeal;
}

export class FsStore implements CheckpointStore, CallLog, BatchStore, PlanSpendStore {
	/**
	 * Run folders (`runs/<id>/<model>` layout prefix) this store holds the lock of: only then are
	 * its files' states trusted, and only a writer repairs torn lines.
	 */
	readonly #locked = new Set<string>();
	/** Per-file chains so appends, reads and reorders of one file in this process never interleave. */
	readonly #queues = new SerialQueues();
	readonly #ctx: StoreContext;
	readonly #files: StageFiles;
	readonly #calls: CallLogFiles;
	readonly #batch: BatchFiles;
	readonly #seals: ResumeSeals;
	readonly #processes: ProcessProbe;

	/** @param root the output root (`--output-root`) holding `runs/`, `AwN_gen/`, … */
	constructor(
		readonly root: string,
		options: FsStoreOptions = {}
	) {
		const notice = options.onNotice ?? (() => {});
		this.#ctx = {
			root,
			pathOf: (layoutPath) => this.pathOf(layoutPath),
			serial: (path, task) => this.#queues.run(path, task),
			holdsLock: (run) => this.#locked.has(runKey(run)),
			notice: (message) => notice(message)
		};
		this.#files = new StageFiles(this.#ctx);
		this.#calls = new CallLogFiles(this.#ctx);
		this.#batch = new BatchFiles(this.#ctx);
		this.#seals = new ResumeSeals(this.#ctx, options.datasetSeal);
		this.#processes = options.processes ?? procProbe();
	}

	/** The absolute path of a layout path. */
	pathOf(layoutPath: string): string {
		return join(this.root, ...layoutPath.split('/'));
	}

	async lock(run: RunKey): Promise<() => Promise<void>> {
		const path = this.pathOf(lockFilePath(run));
		// The run's folders, for every writer, before anything is written in them.
		await refuseLinks(this.root, path);
		const info = await acquireLock(run, path, {
			notice: this.#ctx.notice,
			unwritable: (e, at) => unwritableError(this.root, e, at),
			processes: this.#processes
		});
		// Another process may have written while this one did not hold the lock.
		await this.#forget(run);
		await this.#removeDeadTemps(run);
		this.#locked.add(runKey(run));
		let held = true;
		return async () => {
			if (!held) return;
			held = false;
			await this.#forget(run);
			this.#locked.delete(runKey(run));
			await releaseLock(path, info);
		};
	}

	/** Temporary files a dead writer of the run left in its folders, removed with a note. */
	async #removeDeadTemps(run: RunKey): Promise<void> {
		const dirs = new Set([
			this.pathOf(runFolder(run)),
			dirname(this.pathOf(batchStatePath(run))),
			...STAGE_FILE_NAMES.map((file) => dirname(this.pathOf(stageFilePath(run, file))))
		]);
		const removed = await removeDeadTemps([...dirs], this.#processes);
		if (removed.length === 0) return;
		this.#ctx.notice(
			`${runLabel(run)}: removed ${removed.length === 1 ? 'a temporary file' : `${removed.length} temporary files`} ` +
				`left by a process that stopped mid-write (${removed.map(escapeControl).join(', ')}); ` +
				'nothing saved was in them.'
		);
	}

	/** Drops what this process knows of a run's files (after letting queued writes finish). */
	async #forget(run: RunKey): Promise<void> {
		await this.#calls.close(run);
		await this.#files.forget(run);
	}

	/** The manifest's path, refused when it or a folder above it is a link. */
	async #manifestPath(run: RunKey): Promise<string> {
		const path = this.pathOf(manifestPath(run));
		await refuseLinks(this.root, path);
		return path;
	}

	readManifest = async (run: RunKey) => readManifestFile(await this.#manifestPath(run), run);
	createManifest = async (manifest: Manifest) => {
		const run = { runId: manifest.run_id, modelDir: manifest.model_dir };
		return createManifestFile(await this.#manifestPath(run), manifest);
	};
	recordOperational = async (run: RunKey, entry: OperationalEntry) =>
		recordOperationalFile(await this.#manifestPath(run), run, entry);

	// Stage files (`fs-store-stage-files.ts`); heads are kept per locked session, parsed once.
	readRecords = (run: RunKey, file: StageFile) => this.#files.read(run, file);
	readHeads = (run: RunKey, file: StageFile) => this.#files.heads(run, file);
	appendRecord = (run: RunKey, file: StageFile, record: AnyRecord) =>
		this.#files.append(run, file, record);
	/** One reorder at a time in this process (`reorderInTurn`): a plan's runs end together. */
	finalizeStageFile = (run: RunKey, file: StageFile, order: readonly string[]) =>
		reorderInTurn(this.#ctx, this.#files, run, file, order);

	// The call log (`fs-store-calls.ts`).
	appendCall = (run: RunKey, line: string) => this.#calls.append(run, line);
	readCalls = (run: RunKey) => this.#calls.read(run);

	// BatchStore and PlanSpendStore (`fs-store-batch.ts`): a batch run's rounds, a plan's spend.
	readBatchState = (run: RunKey) => this.#batch.readState(run);
	writeBatchState = (run: RunKey, state: BatchState) => this.#batch.writeState(run, state);
	appendBatchAnswers = (run: RunKey, answers: readonly SavedBatchAnswer[]) =>
		this.#batch.append(run, answers);
	readBatchAnswers = (run: RunKey) => this.#batch.read(run);
	readPlanSpend = (planId: string) => this.#batch.readPlanSpend(planId);
	writePlanSpend = (planId: string, spend: PlanSpend) => this.#batch.writePlanSpend(planId, spend);

	async listRuns(): Promise<RunKey[]> {
		const runs: RunKey[] = [];
		const runsDir = this.pathOf('runs');
		const runIds = await fs.readdir(runsDir, { withFileTypes: true }).catch((e) => {
			if (errorCode(e) === 'ENOENT') return [];
			throw e;
		});
		for (const runEntry of runIds) {
			if (!runEntry.isDirectory() || !RUN_ID_PATTERN.test(runEntry.name)) continue;
			const models = await fs.readdir(join(runsDir, runEntry.name), { withFileTypes: true });
			for (const model of models) {
				if (!model.isDirectory()) continue;
				const run = { runId: runEntry.name, modelDir: model.name };
				const hasManifest = await fs.stat(this.pathOf(manifestPath(run))).then(
					(s) => s.isFile(),
					() => false
				);
				if (hasManifest) runs.push(run);
			}
		}
		return runs.sort(compareRunKeys);
	}

	async deleteRun(run: RunKey): Promise<void> {
		// Holding the lock while deleting keeps a writer from starting halfway through.
		const release = await this.lock(run);
		try {
			for (const file of STAGE_FILE_NAMES) {
				const path = this.pathOf(stageFilePath(run, file));
				await this.#files.drop(path);
				await fs.rm(path, { force: true });
				await removeIfEmpty(dirname(path));
				await removeIfEmpty(dirname(dirname(path)));
			}
			await this.#calls.remove(run);
			await this.#batch.remove(run);
			await fs.rm(this.pathOf(sealFilePath(run)), { force: true });
			await fs.rm(this.pathOf(manifestPath(run)), { force: true });
		} finally {
			await release();
		}
		// Only known files were removed; a folder holding anything else stays.
		const runDir = this.pathOf(runFolder(run));
		await removeIfEmpty(runDir);
		await removeIfEmpty(dirname(runDir));
	}

	// Resume seals (`fs-store-seals.ts`).
	sealStage = (run: RunKey, stage: string, key: string, files: readonly StageFile[]) =>
		this.#seals.seal(run, stage, key, files);
	isStageSealed = (run: RunKey, stage: string, key: string, files: readonly StageFile[]) =>
		this.#seals.isSealed(run, stage, key, files);
	/** The dataset seal last written with the run's stage seals, or null (read without the lock). */
	readDatasetSeal = (run: RunKey) => this.#seals.readDatasetSeal(run);
}

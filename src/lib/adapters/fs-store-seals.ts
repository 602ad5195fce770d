/**
 * Resume seals (`core/engine/seal.ts`) in `runs/<run-id>/<model>/.resume-seals.json`: per stage,
 * the key it was sealed under and, for each file its check reads, what the file was then. A
 * file's state is its size, modification and change times in nanoseconds, inode and device: any
 * write changes the size or the times (the change time cannot be set back by hand), and a copy
 * or a replaced file has another inode. Only a writer holding the lock trusts a seal; an
 * unreadable seal file is no seal.
 */
import { promises as fs } from 'node:fs';
import { RESUME_SEALS_FILE, runFilePath, stageFilePath, type RunKey } from '../core/layout';
import type { StageFile } from '../core/records';
import type { StoreContext } from './fs-store-context';
import { errorCode, readIfExists, replaceFile } from './fs-store-io';

/**
 * `runs/<run-id>/<model>/.resume-seals.json`: the run's resume seals (`core/engine/seal.ts`).
 * Not part of the canonical layout; a run without it (Python harness, older versions, a copy)
 * is checked in full on its next resume, then sealed.
 */
export function sealFilePath(run: RunKey): string {
	return runFilePath(run, RESUME_SEALS_FILE);
}

/**
 * What a caller knows of a run's dataset, under a key naming the dataset's bytes and how they
 * were read (the CLI's `dataset-seal.ts`). Kept with the resume seals, so a later start whose
 * key matches can open the run without parsing the dataset. Opaque to the store.
 */
export interface DatasetSeal {
	key: string;
	facts: unknown;
}

/** What a stage file is on disk, as far as `stat` tells. Null: no file. */
type Fingerprint = { size: string; mtime_ns: string; ctime_ns: string; ino: string; dev: string };

/** A stage's seal: the key it was sealed under, and its files' fingerprints. */
type SealEntry = { key: string; files: Record<string, Fingerprint | null> };

/**
 * The seal file: per stage, the key it was sealed under and its files' fingerprints; and what the
 * CLI last learnt of the run's dataset (`FsStoreOptions.datasetSeal`), opaque to the store.
 */
interface SealFile {
	version: 1;
	stages: Record<string, SealEntry>;
	dataset?: DatasetSeal;
}

async function fingerprint(path: string): Promise<Fingerprint | null> {
	try {
		const s = await fs.lstat(path, { bigint: true });
		return {
			size: String(s.size),
			mtime_ns: String(s.mtimeNs),
			ctime_ns: String(s.ctimeNs),
			ino: String(s.ino),
			dev: String(s.dev)
		};
	} catch (e) {
		if (errorCode(e) === 'ENOENT') return null;
		throw e;
	}
}

const sameFingerprint = (a: Fingerprint | null | undefined, b: Fingerprint | null) =>
	a !== undefined &&
	(a === null || b === null
		? a === b
		: a.size === b.size &&
			a.mtime_ns === b.mtime_ns &&
			a.ctime_ns === b.ctime_ns &&
			a.ino === b.ino &&
			a.dev === b.dev);

/** The seal file, or null when there is none or it is not one (then nothing is sealed). */
async function readSeals(path: string): Promise<SealFile | null> {
	try {
		// Never through a link (`fs-store-links.ts`): one is no seal, so the files are checked.
		const value = JSON.parse((await readIfExists(path))?.toString('utf8') ?? 'null') as SealFile;
		const ok =
			value?.version === 1 &&
			typeof value.stages === 'object' &&
			value.stages !== null &&
			!Array.isArray(value.stages);
		return ok ? value : null;
	} catch {
		return null;
	}
}

/** Replaces the seal file whole (a reader sees the old one or the new one). */
const writeSeals = (path: string, seals: SealFile) =>
	replaceFile(path, `${JSON.stringify(seals)}\n`);

/** `FsStore`'s `sealStage`, `isStageSealed` and `readDatasetSeal`. */
export class ResumeSeals {
	readonly #ctx: StoreContext;
	readonly #datasetSeal: DatasetSeal | undefined;

	constructor(ctx: StoreContext, datasetSeal: DatasetSeal | undefined) {
		this.#ctx = ctx;
		this.#datasetSeal = datasetSeal;
	}

	/** Fingerprint of a stage file after the appends queued so far are on disk. */
	#fingerprint(run: RunKey, file: StageFile): Promise<Fingerprint | null> {
		const path = this.#ctx.pathOf(stageFilePath(run, file));
		return this.#ctx.serial(path, () => fingerprint(path));
	}

	/** Seals waiting for the next write of a seal file, and that write, by path. */
	readonly #waiting = new Map<
		string,
		{ seals: { stage: string; entry: Promise<SealEntry> }[]; written: Promise<void> }
	>();

	/**
	 * Seals that arrive together (the stages of a run that end together) share one write of the
	 * seal file; each resolves once that write is on disk.
	 */
	seal(run: RunKey, stage: string, key: string, files: readonly StageFile[]): Promise<void> {
		const path = this.#ctx.pathOf(sealFilePath(run));
		const entry = Promise.all(files.map((file) => this.#fingerprint(run, file))).then(
			(fingerprints): SealEntry => ({
				key,
				files: Object.fromEntries(files.map((file, i) => [file, fingerprints[i]]))
			})
		);
		let next = this.#waiting.get(path);
		if (!next) {
			const seals: { stage: string; entry: Promise<SealEntry> }[] = [];
			const written = this.#ctx.serial(path, async () => {
				this.#waiting.delete(path);
				const entries = await Promise.all(seals.map((seal) => seal.entry));
				const saved = (await readSeals(path)) ?? { version: 1, stages: {} };
				seals.forEach((seal, i) => (saved.stages[seal.stage] = entries[i]));
				if (this.#datasetSeal) saved.dataset = this.#datasetSeal;
				await writeSeals(path, saved);
			});
			next = { seals, written };
			this.#waiting.set(path, next);
		}
		next.seals.push({ stage, entry });
		return next.written;
	}

	async isSealed(run: RunKey, stage: string, key: string, files: readonly StageFile[]) {
		// A reader without the lock could see a file another process is writing.
		if (!this.#ctx.holdsLock(run)) return false;
		const path = this.#ctx.pathOf(sealFilePath(run));
		const saved = await this.#ctx.serial(path, () => readSeals(path));
		const entry = saved?.stages[stage];
		if (!entry || entry.key !== key || typeof entry.files !== 'object' || !entry.files)
			return false;
		for (const file of files) {
			const now = await this.#fingerprint(run, file);
			if (!Object.hasOwn(entry.files, file) || !sameFingerprint(entry.files[file], now)) {
				return false;
			}
		}
		// A run sealed before its dataset was (an older version): the dataset seal joins it now.
		const dataset = this.#datasetSeal;
		if (dataset && JSON.stringify(saved?.dataset) !== JSON.stringify(dataset)) {
			await this.#ctx
				.serial(path, async () => {
					const now = await readSeals(path);
					if (!now) return;
					now.dataset = dataset;
					await writeSeals(path, now);
				})
				.catch(() => undefined);
		}
		return true;
	}

	/**
	 * The dataset seal last written with the run's stage seals, or null. Read without the lock: a
	 * hint the caller checks (its key) and the run checks again (its manifest, its stage seals).
	 */
	async readDatasetSeal(run: RunKey): Promise<DatasetSeal | null> {
		const path = this.#ctx.pathOf(sealFilePath(run));
		const entry = (await this.#ctx.serial(path, () => readSeals(path)))?.dataset;
		return entry && typeof entry === 'object' && typeof entry.key === 'string' ? entry : null;
	}
}

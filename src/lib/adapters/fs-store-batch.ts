/**
 * `runs/<run-id>/<model>/batch/`: a batch-mode run's rounds (`core/batch/store.ts`).
 * `state.json` is replaced whole (temporary file, sync, rename, folder synced), so a crash
 * leaves the old state or the new one; `answers.jsonl` is appended and synced before the
 * append resolves, so an answer said saved survives a crash. The first append of a process cuts
 * a torn last line a crash may have left (the reader drops it too), so the next line starts whole.
 * Neither file is a canonical stage file: the layout parser passes over `batch/`, so no bundle or
 * export takes them; they are removed with the run.
 */
import { promises as fs } from 'node:fs';
import { dirname } from 'node:path';
import {
	BatchState,
	batchAnswerLine,
	parseBatchAnswers,
	parseBatchState
} from '../core/batch/store';
import type { SavedBatchAnswer } from '../core/batch/store';
import { batchAnswersPath, batchStatePath, planSpendPath, type RunKey } from '../core/layout';
import { parsePlanSpend, type PlanSpend } from '../core/session/spend';
import type { StoreContext } from './fs-store-context';
import { openIfExists, readIfExists, removeIfEmpty, replaceFile, syncDir } from './fs-store-io';
import { dropTornCallLine } from './fs-store-torn';
import { writeAll } from './fs-store-write';

/** `FsStore`'s part of `BatchStore`. */
export class BatchFiles {
	readonly #ctx: StoreContext;
	/** Answer files whose tail this process checked (a torn line is cut once). */
	readonly #checked = new Set<string>();

	constructor(ctx: StoreContext) {
		this.#ctx = ctx;
	}

	async readState(run: RunKey): Promise<BatchState | null> {
		const path = batchStatePath(run);
		const bytes = await readIfExists(this.#ctx.pathOf(path));
		if (bytes === null) return null;
		return parseBatchState(bytes.toString('utf8'), path);
	}

	async writeState(run: RunKey, state: BatchState): Promise<void> {
		const text = `${JSON.stringify(BatchState.parse(state), null, 1)}\n`;
		await this.#replace(this.#ctx.pathOf(batchStatePath(run)), text);
	}

	/** Replaces `path` whole, its folder synced: a crash leaves the old file or the new one. */
	#replace(path: string, text: string): Promise<void> {
		return this.#ctx.serial(path, async () => {
			await fs.mkdir(dirname(path), { recursive: true });
			await replaceFile(path, text);
			await syncDir(dirname(path));
		});
	}

	/** A plan's cap and spend (`plans/<plan-id>.json`); null when none or unreadable as one. */
	async readPlanSpend(planId: string): Promise<PlanSpend | null> {
		const bytes = await readIfExists(this.#ctx.pathOf(planSpendPath(planId)));
		if (bytes === null || bytes.length > 4096) return null;
		try {
			return parsePlanSpend(JSON.parse(bytes.toString('utf8')));
		} catch {
			return null;
		}
	}

	/** Replaced whole, as `state.json`: a crash leaves the old spend or the new one. */
	writePlanSpend(planId: string, spend: PlanSpend): Promise<void> {
		return this.#replace(
			this.#ctx.pathOf(planSpendPath(planId)),
			`${JSON.stringify(spend, null, 1)}\n`
		);
	}

	async append(run: RunKey, answers: readonly SavedBatchAnswer[]): Promise<void> {
		if (answers.length === 0) return;
		const path = this.#ctx.pathOf(batchAnswersPath(run));
		const bytes = Buffer.from(answers.map(batchAnswerLine).join(''), 'utf8');
		await this.#ctx.serial(path, async () => {
			await fs.mkdir(dirname(path), { recursive: true });
			const handle = await fs.open(path, 'a+');
			try {
				if (!this.#checked.has(path)) await dropTornCallLine(handle);
				this.#checked.add(path);
				await writeAll(handle, bytes, path);
				await handle.sync();
			} finally {
				await handle.close();
			}
		});
	}

	/** Read a line at a time (never the file whole), between appends. */
	async read(run: RunKey): Promise<SavedBatchAnswer[]> {
		const path = batchAnswersPath(run);
		const abs = this.#ctx.pathOf(path);
		return this.#ctx.serial(abs, async () => {
			const handle = await openIfExists(abs);
			if (handle === null) return [];
			try {
				return await parseBatchAnswers(handle.createReadStream({ autoClose: false }), path);
			} finally {
				await handle.close();
			}
		});
	}

	async remove(run: RunKey): Promise<void> {
		const answers = this.#ctx.pathOf(batchAnswersPath(run));
		this.#checked.delete(answers);
		await fs.rm(answers, { force: true });
		await fs.rm(this.#ctx.pathOf(batchStatePath(run)), { force: true });
		await removeIfEmpty(dirname(answers));
	}
}

/**
 * What a dataset loader offers the page, whichever thread it parses in (`dataset-loader.ts`:
 * the worker, or this thread when none can run).
 */
import type { LoadOptions } from '$lib/core/dataset/load';
import type { Case } from '$lib/core/dataset/types';
import type { CasePageQuery, CaseQueryPage } from '$lib/core/dataset/case-filter';
import type { LoadOutcome, Progress } from './dataset-load-protocol';

/** Every case of a kept dataset, or why they could not be had. */
export type CasesOutcome = { ok: true; cases: Case[] } | { ok: false; message: string };
/** A page of the case browser, or why it could not be had. */
export type QueryOutcome = { ok: true; page: CaseQueryPage } | { ok: false; message: string };

/**
 * Loads one file. A Blob (a File) is only a handle and stays usable; bytes are lent: read
 * them back from the outcome, not the argument.
 */
export interface DatasetLoader {
	load(
		source: Uint8Array | Blob,
		options: Omit<LoadOptions, 'onProgress'>,
		onProgress?: (progress: Progress) => void
	): Promise<LoadOutcome>;
	/** Every case of the dataset a valid outcome without cases names (`handle`, `total` cases). */
	cases(
		handle: number,
		total: number,
		onProgress?: (progress: Progress) => void
	): Promise<CasesOutcome>;
	/** A page of the case browser over the dataset `handle` names. */
	query(handle: number, query: CasePageQuery): Promise<QueryOutcome>;
	/**
	 * Lets go of the dataset `handle` names, whose cases the page no longer asks for (it was
	 * forgotten, or they are all on the page), so that its memory is freed.
	 */
	release(handle: number): void;
}

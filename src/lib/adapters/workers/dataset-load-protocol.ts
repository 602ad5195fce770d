/**
 * The messages between the Dataset page and the dataset worker, and the page's side of them
 * as pure functions: `LoadReceiver`, fed one message at a time (the worker's side,
 * `handleLoadRequest`, is in `dataset-load-handler.ts`). The worker file and the page's
 * client are thin wiring around these, so Node tests drive the whole protocol without a
 * Worker.
 *
 * Why the shape: parsing and checking 100 MB takes seconds, so it runs in the worker. The
 * file goes there as a Blob (a File from the file input, or the Blob IndexedDB gives back):
 * a handle, so the page never copies or even reads the bytes; bytes the page does hold travel
 * as a transferred ArrayBuffer and come back with the answer (no copy either way).
 *
 * A small dataset's cases follow its head in chunks (`casesFollow`), and the page holds them
 * all. A large one's (more than `EAGER_CASES`) stay in the worker: 205,000 cases held by the
 * page cost it one V8 garbage collection of 200–700 ms after another while they arrive (a
 * trace shows scavenges of cases that all survive, then compactions of the grown heap), so
 * the page gets the head only, asks the worker for the case browser's pages (`query`), and
 * fetches every case (`cases`) only when a page that runs or inspects needs them. Problem and
 * warning lists are cut to `PROBLEMS_SENT` items plus counts by kind of the rest: a million
 * problems would cost more to send than to find, and nobody reads past the first screens.
 */
// Types only: the page's side must not pull the validator into every page's JavaScript.
import type { Dataset, DatasetProblem, LoadOptions, LoadProgress } from '$lib/core/dataset/load';
import type { Case, HistoryFields } from '$lib/core/dataset/types';
import type { RpcWords } from '../worker-rpc';
import type { CasePageQuery, CaseQueryPage } from '$lib/core/dataset/case-filter';

/**
 * Datasets of up to this many cases are handed to the page whole with their head; larger
 * ones stay in the worker until asked for (the page then receives them in chunks, costing it
 * the garbage collections this avoids at load: so only where every case is needed).
 */
export const EAGER_CASES = 20_000;

/** Problems (or warnings) sent to the page; the rest are counted by kind. */
export const PROBLEMS_SENT = 1000;

/** A problem list cut to what the page shows: the first items, and the rest counted by kind. */
export interface ProblemList {
	/** The first problems, in file order (at most `PROBLEMS_SENT`). */
	items: DatasetProblem[];
	/** How many there are in all. */
	total: number;
	/** The problems not in `items`, counted by kind (their field, or "file"), most first. */
	omitted: Array<{ kind: string; count: number }>;
}

/**
 * The page's load request. An ArrayBuffer `source` is transferred, so the page's view is
 * detached until the answer gives it back; a Blob is only a handle and stays with the page.
 */
export interface LoadRequest {
	type: 'load';
	id: number;
	source: ArrayBuffer | Blob;
	options: Omit<LoadOptions, 'onProgress'>;
}

/**
 * The page asks for every case of a dataset the worker keeps (`handle`: the id of the load
 * that gave it), or for one page of the case browser.
 */
export type CasesRequest = { type: 'cases'; id: number; handle: number };
export type QueryRequest = { type: 'query'; id: number; handle: number; query: CasePageQuery };
/** The page no longer asks for the dataset `handle` names (forgotten, or its cases are on the page): no reply. */
export type ReleaseRequest = { type: 'release'; id: number; handle: number };
/** Everything the page sends the worker. */
export type WorkerRequest = LoadRequest | CasesRequest | QueryRequest | ReleaseRequest;

/** The dataset worker's calls (`worker-rpc`): each request's messages come as its events. */
export type DatasetApi = {
	load: { call: LoadRequest; event: LoadResponse; result: void };
	cases: { call: CasesRequest; event: LoadResponse; result: void };
	query: { call: QueryRequest; event: LoadResponse; result: void };
	release: { call: ReleaseRequest; result: void };
};

/** How far a load has got: the loader's phases, then `receiving` (cases arrived on the page). */
export type Progress = LoadProgress | { phase: 'receiving'; done: number; total: number };

/** A valid dataset without its cases, which follow in `cases` messages. */
export type DatasetHead = Omit<Dataset, 'cases'> & { caseCount: number };

/** The worker's messages, all for one request `id`. `bytes` gives back an ArrayBuffer source (else null). */
export type LoadResponse =
	| { type: 'progress'; id: number; progress: LoadProgress }
	| {
			type: 'invalid';
			id: number;
			bytes: ArrayBuffer | null;
			problems: ProblemList;
			sha256: string | null;
			mapping?: { candidates: string[]; detected: Partial<HistoryFields> };
	  }
	| {
			type: 'valid';
			id: number;
			bytes: ArrayBuffer | null;
			head: DatasetHead;
			/** True when the cases follow in `cases` messages; false when the worker keeps them. */
			casesFollow: boolean;
			warnings: ProblemList;
	  }
	| { type: 'cases'; id: number; from: number; cases: Case[] }
	| { type: 'query-result'; id: number; page: CaseQueryPage }
	| {
			type: 'failed';
			id: number;
			bytes: ArrayBuffer | null;
			message: string;
			/** A failure the page says in its own language (`failureText`); `message` is its English. */
			code?: WorkerFailure;
	  };

/** Failures of the worker's own (not the core's): the page words them, in the reader's language. */
export type WorkerFailure = 'not_held';

/**
 * The page's words for the protocol's own failures, in the interface language (the page gives
 * them: `state/dataset-words.ts`), besides the worker client's.
 */
export interface LoadWords extends RpcWords {
	/** The worker no longer holds the dataset a request names. */
	notHeld(): string;
	/** The worker's replies broke the protocol (`detail`: how, when known). */
	broken(detail?: string): string;
}

/** A `failed` reply as the page shows it: its code in the page's words, else its message. */
export function failureText(
	message: { message: string; code?: WorkerFailure },
	words: LoadWords
): string {
	return message.code === 'not_held' ? words.notHeld() : message.message;
}

/**
 * What a load gives the page. `bytes` are the bytes lent as an ArrayBuffer, back (null for a
 * Blob source, which never left, or when a worker died with them).
 */
export type LoadOutcome =
	| {
			kind: 'valid';
			bytes: Uint8Array | null;
			head: DatasetHead;
			/** The whole dataset when its cases came along; null when the worker keeps them. */
			dataset: Dataset | null;
			/** Names the kept cases in later `cases` and `query` requests (the load's id). */
			handle: number;
			warnings: ProblemList;
	  }
	| {
			kind: 'invalid';
			bytes: Uint8Array | null;
			problems: ProblemList;
			sha256: string | null;
			mapping: { candidates: string[]; detected: Partial<HistoryFields> } | null;
	  }
	| { kind: 'failed'; bytes: Uint8Array | null; message: string };

/** `postMessage` of the worker's global (or a test's stand-in). */
export type Post = (message: LoadResponse, transfer?: Transferable[]) => void;

/**
 * The page's side of one request: feed it every message for its id; `accept` returns the
 * outcome once complete (after the last chunk of cases), else null. Progress goes to
 * `onProgress`, including `receiving` while chunks arrive.
 */
export class LoadReceiver {
	#head: DatasetHead | null = null;
	#casesFollow = true;
	#handle = 0;
	#warnings: ProblemList | null = null;
	#bytes: Uint8Array | null = null;
	#cases: Case[] = [];

	constructor(
		private readonly words: LoadWords,
		private readonly onProgress: (progress: Progress) => void = () => {}
	) {}

	accept(message: LoadResponse): LoadOutcome | null {
		switch (message.type) {
			case 'progress':
				this.onProgress(message.progress);
				return null;
			case 'failed':
				return {
					kind: 'failed',
					bytes: message.bytes ? new Uint8Array(message.bytes) : null,
					message: failureText(message, this.words)
				};
			case 'invalid':
				return {
					kind: 'invalid',
					bytes: message.bytes ? new Uint8Array(message.bytes) : null,
					problems: message.problems,
					sha256: message.sha256,
					mapping: message.mapping ?? null
				};
			case 'query-result':
				return this.#broken('a case page arrived for a load');
			case 'valid':
				this.#head = message.head;
				this.#casesFollow = message.casesFollow;
				this.#handle = message.id;
				this.#warnings = message.warnings;
				this.#bytes = message.bytes ? new Uint8Array(message.bytes) : null;
				return this.#complete();
			case 'cases': {
				if (!this.#head || message.from !== this.#cases.length) {
					return this.#broken(`cases from ${message.from} arrived out of order`);
				}
				for (const c of message.cases) this.#cases.push(c);
				this.onProgress({
					phase: 'receiving',
					done: this.#cases.length,
					total: this.#head.caseCount
				});
				return this.#complete();
			}
		}
	}

	#complete(): LoadOutcome | null {
		const head = this.#head;
		if (!head) return null;
		const common = {
			kind: 'valid' as const,
			bytes: this.#bytes,
			head,
			handle: this.#handle,
			warnings: this.#warnings!
		};
		if (!this.#casesFollow) return { ...common, dataset: null };
		if (this.#cases.length < head.caseCount) return null;
		return { ...common, dataset: withCases(head, this.#cases) };
	}

	#broken(text: string): LoadOutcome {
		return {
			kind: 'failed',
			bytes: this.#bytes,
			message: this.words.broken(text)
		};
	}
}

/** A head and its cases as the core's `Dataset`. */
export function withCases(head: DatasetHead, cases: Case[]): Dataset {
	const dataset: Dataset & { caseCount?: number } = { ...head, cases };
	delete dataset.caseCount;
	return dataset;
}

/**
 * The page's side of a `cases` request: feed it every message for its id; `accept` returns
 * the cases once all `total` have arrived, or the failure.
 */
export class CasesReceiver {
	#cases: Case[] = [];

	constructor(
		private readonly total: number,
		private readonly words: LoadWords,
		private readonly onProgress: (progress: Progress) => void = () => {}
	) {}

	accept(
		message: LoadResponse
	): { ok: true; cases: Case[] } | { ok: false; message: string } | null {
		if (message.type === 'failed') return { ok: false, message: failureText(message, this.words) };
		if (message.type !== 'cases' || message.from !== this.#cases.length) {
			return { ok: false, message: this.words.broken() };
		}
		for (const c of message.cases) this.#cases.push(c);
		this.onProgress({ phase: 'receiving', done: this.#cases.length, total: this.total });
		return this.#cases.length >= this.total ? { ok: true, cases: this.#cases } : null;
	}
}

/** A request's ArrayBuffer: the view's own buffer when it spans it exactly, else a copy. */
export function ownBuffer(bytes: Uint8Array): ArrayBuffer {
	if (
		bytes.byteOffset === 0 &&
		bytes.byteLength === bytes.buffer.byteLength &&
		bytes.buffer instanceof ArrayBuffer
	) {
		return bytes.buffer;
	}
	return bytes.slice().buffer as ArrayBuffer;
}

/**
 * The problems of a list not among its first `shown` items, by kind, most first: the
 * unshown sent items and the ones never sent together.
 */
export function notShownByKind(
	list: ProblemList,
	shown: number
): Array<{ kind: string; count: number }> {
	const counts = new Map<string, number>();
	for (let i = shown; i < list.items.length; i++) {
		const kind = list.items[i].field ?? 'file';
		counts.set(kind, (counts.get(kind) ?? 0) + 1);
	}
	for (const { kind, count } of list.omitted) counts.set(kind, (counts.get(kind) ?? 0) + count);
	return [...counts]
		.map(([kind, count]) => ({ kind, count }))
		.sort((a, b) => b.count - a.count || a.kind.localeCompare(b.kind));
}

/**
 * The worker's side of the dataset protocol (`dataset-load-protocol.ts`): load, cap the
 * problem lists, and send a small valid dataset's cases in chunks or keep a large one's for
 * later `cases` and `query` requests. Imported by the worker and by the in-thread fallback
 * only, so the validator stays out of the pages' own JavaScript.
 */
import { loadDataset, type Dataset, type DatasetProblem } from '$lib/core/dataset/load';
import { MAX_LISTED_PROBLEMS } from '$lib/core/dataset/problems';
import type { Case } from '$lib/core/dataset/types';
import type { RpcHandlers } from '../worker-rpc';
import { queryCases } from '$lib/core/dataset/case-filter';
import {
	type DatasetApi,
	EAGER_CASES,
	PROBLEMS_SENT,
	type CasesRequest,
	type QueryRequest,
	type ReleaseRequest,
	type LoadRequest,
	type Post,
	type ProblemList
} from './dataset-load-protocol';

/**
 * At most this many cases in one message… (in Chromium, receiving a message of 2,000 or even 500
 * small cases became a long task of the page on a loaded machine; 200 keep each message a small
 * task even then).
 */
export const CHUNK_CASES = 200;
/** …and about this many characters of text (a single larger case travels alone). */
export const CHUNK_CHARS = 1_000_000;

/** Cuts a list to its first `limit` items and counts the rest by kind. */
export function capProblems(
	problems: readonly DatasetProblem[],
	limit = PROBLEMS_SENT
): ProblemList {
	const counts = new Map<string, number>();
	for (let i = limit; i < problems.length; i++) {
		const kind = problems[i].field ?? 'file';
		counts.set(kind, (counts.get(kind) ?? 0) + 1);
	}
	return {
		items: problems.slice(0, limit),
		total: problems.length,
		omitted: [...counts]
			.map(([kind, count]) => ({ kind, count }))
			.sort((a, b) => b.count - a.count || a.kind.localeCompare(b.kind))
	};
}

/**
 * The core's list as the page's: the core keeps the first `MAX_LISTED_PROBLEMS` and adds one
 * line counting the rest by kind; the page gets the kept ones as items (cut again to
 * `PROBLEMS_SENT`) and the counts as `omitted`, to draw them its own way.
 */
export function fromCore(
	listed: readonly DatasetProblem[],
	total: number,
	more: Record<string, number>
): ProblemList {
	const items = total > MAX_LISTED_PROBLEMS ? listed.slice(0, -1) : listed;
	const list = capProblems(items);
	const counts = new Map(list.omitted.map((k) => [k.kind, k.count]));
	for (const [kind, count] of Object.entries(more))
		counts.set(kind, (counts.get(kind) ?? 0) + count);
	return {
		items: list.items,
		total,
		omitted: [...counts]
			.map(([kind, count]) => ({ kind, count }))
			.sort((a, b) => b.count - a.count || a.kind.localeCompare(b.kind))
	};
}

/** Roughly how many characters a case carries, to bound a chunk's size. */
export function caseWeight(c: Case): number {
	let n = c.case_number.length + c.cause_of_action.length + c.plaintiff_type.length;
	for (const m of c.complete) n += m.content.length;
	for (const m of c.underspecified) n += m.content.length;
	for (const p of c.focal_points) n += p.length;
	for (const claim of c.claims) n += claim.claim.length;
	const kd = c.key_details;
	if (typeof kd === 'string') n += kd.length;
	else if (Array.isArray(kd)) for (const s of kd) n += s.length;
	else
		for (const [k, v] of Object.entries(kd))
			n += k.length + (typeof v === 'string' ? v.length : 64);
	return n;
}

/** The cases in consecutive chunks of at most `maxCases` cases and about `maxChars` characters. */
export function* chunkCases(
	cases: readonly Case[],
	maxCases = CHUNK_CASES,
	maxChars = CHUNK_CHARS
): Generator<{ from: number; cases: Case[] }> {
	let from = 0;
	while (from < cases.length) {
		let end = from;
		let chars = 0;
		while (end < cases.length && end - from < maxCases) {
			const w = caseWeight(cases[end]);
			if (end > from && chars + w > maxChars) break;
			chars += w;
			end++;
		}
		yield { from, cases: cases.slice(from, end) };
		from = end;
	}
}

function errorText(e: unknown): string {
	return e instanceof Error ? e.message : String(e);
}

/** Options of {@link handleLoadRequest}. */
export interface HandlerOptions {
	/** @default loadDataset from the core */
	load?: typeof loadDataset;
	/** @default CHUNK_CASES */
	chunkCases?: number;
	/** @default CHUNK_CHARS */
	chunkChars?: number;
	/** @default EAGER_CASES */
	eagerCases?: number;
	/** Where a large dataset's cases are kept between requests. @default one per handler table */
	kept?: Kept;
}

/**
 * The one large dataset the worker keeps: the last valid one it loaded whose cases did not
 * go to the page. The page uses the dataset of its last valid load, so an older one is never
 * asked for again and is dropped.
 */
export interface Kept {
	current: { handle: number; dataset: Dataset } | null;
}

const processKept: Kept = { current: null };

/**
 * The worker's side of one request: loads the bytes, posts progress, then the outcome with
 * the bytes transferred back and, for a valid file, its cases in chunks.
 */
export async function handleLoadRequest(
	request: LoadRequest,
	post: Post,
	options: HandlerOptions = {}
): Promise<void> {
	const load = options.load ?? loadDataset;
	const { id, source } = request;
	// An ArrayBuffer goes back with the answer, transferred; a Blob stayed with the page.
	const bytes = source instanceof ArrayBuffer ? source : null;
	const back = bytes ? [bytes] : [];
	let result;
	try {
		const data = bytes
			? new Uint8Array(bytes)
			: new Uint8Array(await (source as Blob).arrayBuffer());
		result = await load(data, {
			...request.options,
			onProgress: (progress) => post({ type: 'progress', id, progress })
		});
	} catch (e) {
		post({ type: 'failed', id, bytes, message: errorText(e) }, back);
		return;
	}
	if (!result.ok) {
		post(
			{
				type: 'invalid',
				id,
				bytes,
				problems: fromCore(result.problems, result.problemCount, result.moreProblems),
				sha256: result.sha256,
				...(result.mapping ? { mapping: result.mapping } : {})
			},
			back
		);
		return;
	}
	const { cases, ...rest } = result.dataset;
	const casesFollow = cases.length <= (options.eagerCases ?? EAGER_CASES);
	const kept = options.kept ?? processKept;
	// A newer valid dataset replaces the kept one on the page: drop it (and free its memory).
	kept.current = casesFollow ? null : { handle: id, dataset: result.dataset };
	post(
		{
			type: 'valid',
			id,
			bytes,
			head: { ...rest, caseCount: cases.length },
			casesFollow,
			warnings: fromCore(result.warnings, result.warningCount, result.moreWarnings)
		},
		back
	);
	if (casesFollow) sendCases(id, cases, post, options);
}

function sendCases(id: number, cases: readonly Case[], post: Post, options: HandlerOptions): void {
	for (const chunk of chunkCases(cases, options.chunkCases, options.chunkChars)) {
		post({ type: 'cases', id, ...chunk });
	}
}

/** The kept dataset a request names, or null once a `failed` answer says it is gone. */
function keptOrFailed(
	request: { id: number; handle: number },
	post: Post,
	options: HandlerOptions
): Dataset | null {
	const kept = options.kept ?? processKept;
	if (kept.current?.handle === request.handle) return kept.current.dataset;
	post({
		type: 'failed',
		id: request.id,
		bytes: null,
		message: 'the dataset is no longer held by the validation worker; open the file again',
		code: 'not_held'
	});
	return null;
}

/** Every case of a kept dataset, in chunks (`cases` messages for the request's id). */
export function handleCasesRequest(
	request: CasesRequest,
	post: Post,
	options: HandlerOptions = {}
): void {
	const dataset = keptOrFailed(request, post, options);
	if (dataset) sendCases(request.id, dataset.cases, post, options);
}

/** One page of the case browser over a kept dataset. */
export function handleQueryRequest(
	request: QueryRequest,
	post: Post,
	options: HandlerOptions = {}
): void {
	const dataset = keptOrFailed(request, post, options);
	if (!dataset) return;
	const page = queryCases(dataset.cases, dataset.categories, request.query);
	post({ type: 'query-result', id: request.id, page });
}

/** Drops the kept dataset `request` names, freeing its memory; any other is left as it is. */
export function handleReleaseRequest(request: ReleaseRequest, options: HandlerOptions = {}): void {
	const kept = options.kept ?? processKept;
	if (kept.current?.handle === request.handle) kept.current = null;
}

/**
 * The worker's calls (`dataset.worker.ts`, and the in-thread fallback): each request's messages
 * go to the page as the call's events. Requests run one after another, in the order they came,
 * so a query sent after a release sees it. Each table keeps its own large dataset.
 */
export function datasetHandlers(options: HandlerOptions = {}): RpcHandlers<DatasetApi> {
	const own = { ...options, kept: options.kept ?? { current: null } };
	let queue: Promise<unknown> = Promise.resolve();
	const inOrder = (work: () => void | Promise<void>): Promise<void> => {
		const run = queue.then(work);
		queue = run.catch(() => undefined);
		return run;
	};
	return {
		load: (request, { emit }) => inOrder(() => handleLoadRequest(request, emit, own)),
		cases: (request, { emit }) => inOrder(() => handleCasesRequest(request, emit, own)),
		query: (request, { emit }) => inOrder(() => handleQueryRequest(request, emit, own)),
		release: (request) => inOrder(() => handleReleaseRequest(request, own))
	};
}

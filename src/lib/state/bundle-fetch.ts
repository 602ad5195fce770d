/**
 * Fetching a bundle a link names, bounded and in two steps: a HEAD that learns the size (the page
 * asks the user before anything more is fetched), then the GET, read no further than the bundle
 * size limit. Each failure says what happened: the server refused this page for CORS (told from a
 * server that is down by a `no-cors` probe, as `core/model/diagnose.ts` does), nothing answered,
 * no such file, another HTTP status, too large, or not a zip. Cookies are never sent.
 */
import { clipText } from '$lib/core/text/clip';
import { escapeControl } from '$lib/core/text/escape-control';

export type BundleFailure =
	| { kind: 'offline' | 'cors' | 'unreachable' }
	| { kind: 'not-found' | 'http'; status: number }
	/** `bytes`: the size the server gave; null when the body ran past `max` with none given. */
	| { kind: 'too-large'; bytes: number | null; max: number }
	/** `type`: the Content-Type the server gave (escaped), '' for none. */
	| { kind: 'not-zip'; type: string };

export class BundleFetchError extends Error {
	override name = 'BundleFetchError';
	constructor(readonly failure: BundleFailure) {
		super(`bundle link: ${failure.kind}`);
	}
}

export interface BundleFetchOptions {
	/** @default globalThis.fetch */
	fetchImpl?: typeof fetch;
	/** False when the browser is offline for certain. @default () => true */
	online?: () => boolean;
	signal?: AbortSignal;
	/** Time allowed for the HEAD and the probe, in ms. @default 20000 */
	timeoutMs?: number;
}

const INIT = { credentials: 'omit', cache: 'no-store', redirect: 'follow' } as const;
/** Statuses of a server that does not do HEAD: the size is then not known until the GET. */
const NO_HEAD = new Set([405, 501]);
/** The four bytes a zip (or an empty one, or a spanned one) begins with. */
const ZIP_STARTS = ['PK\x03\x04', 'PK\x05\x06', 'PK\x07\x08'];

function signalOf(options: BundleFetchOptions): AbortSignal {
	const signals = [AbortSignal.timeout(options.timeoutMs ?? 20_000)];
	if (options.signal) signals.push(options.signal);
	return AbortSignal.any(signals);
}

/** Why a request failed without an answer: offline, a CORS refusal, or nothing answering. */
async function noAnswer(url: string, e: unknown, options: BundleFetchOptions): Promise<unknown> {
	if ((e as Error).name === 'AbortError' && options.signal?.aborted) return e;
	if (options.online?.() === false) return new BundleFetchError({ kind: 'offline' });
	try {
		await (options.fetchImpl ?? fetch)(url, {
			...INIT,
			method: 'HEAD',
			mode: 'no-cors',
			signal: signalOf(options)
		});
		return new BundleFetchError({ kind: 'cors' });
	} catch {
		return new BundleFetchError({ kind: 'unreachable' });
	}
}

async function request(url: string, method: 'HEAD' | 'GET', options: BundleFetchOptions) {
	try {
		const signal = method === 'HEAD' ? signalOf(options) : options.signal;
		return await (options.fetchImpl ?? fetch)(url, { ...INIT, method, mode: 'cors', signal });
	} catch (e) {
		throw await noAnswer(url, e, options);
	}
}

function checkStatus(response: Response): void {
	if (response.ok) return;
	const { status } = response;
	throw new BundleFetchError({
		kind: status === 404 || status === 410 ? 'not-found' : 'http',
		status
	});
}

/** The Content-Length of `response`, refused when over `max`; null when not given. */
function declaredSize(response: Response, max: number): number | null {
	const header = response.headers.get('content-length');
	const bytes = header !== null && /^\d+$/.test(header.trim()) ? Number(header) : null;
	if (bytes !== null && bytes > max) throw new BundleFetchError({ kind: 'too-large', bytes, max });
	return bytes;
}

/** What a HEAD learnt: the size (null when not said) and the URL answered after redirects. */
export interface BundleHead {
	bytes: number | null;
	/** `response.url`: the link itself when not redirected (or when the fetch does not say). */
	finalURL: string;
}

/** The bundle's size and final URL from a HEAD, refused when over `max`. */
export async function bundleHead(
	url: string,
	max: number,
	options: BundleFetchOptions = {}
): Promise<BundleHead> {
	const response = await request(url, 'HEAD', options);
	const finalURL = response.url || url;
	if (NO_HEAD.has(response.status)) return { bytes: null, finalURL };
	checkStatus(response);
	return { bytes: declaredSize(response, max), finalURL };
}

/** The bundle's bytes, read no further than `max`, refused unless they begin as a zip does. */
export async function fetchBundle(
	url: string,
	max: number,
	options: BundleFetchOptions = {}
): Promise<Uint8Array> {
	const response = await request(url, 'GET', options);
	checkStatus(response);
	declaredSize(response, max);
	const chunks: Uint8Array[] = [];
	let total = 0;
	const reader = response.body?.getReader();
	for (let next = await reader?.read(); next && !next.done; next = await reader!.read()) {
		total += next.value.length;
		if (total > max) {
			await reader!.cancel();
			throw new BundleFetchError({ kind: 'too-large', bytes: null, max });
		}
		chunks.push(next.value);
	}
	const bytes = new Uint8Array(total);
	let at = 0;
	for (const chunk of chunks) {
		bytes.set(chunk, at);
		at += chunk.length;
	}
	const start = String.fromCharCode(...bytes.subarray(0, 4));
	if (!ZIP_STARTS.includes(start)) {
		const type = clipText(escapeControl(response.headers.get('content-type') ?? ''), 80);
		throw new BundleFetchError({ kind: 'not-zip', type });
	}
	return bytes;
}

/**
 * Fetching a bundle a link names, bounded and in two steps: a HEAD that learns the size and the
 * URL it ends at after redirects (the page asks the user, naming that host, before anything more
 * is fetched), then the GET of that URL, which follows no redirect (the bytes come from the origin
 * the user was shown, or not at all) and is read no further than the size the user agreed to (or
 * the bundle size limit when the HEAD gave none). Each failure says what happened: the server
 * refused this page for CORS (told from a server that is down by a `no-cors` probe, as
 * `core/model/diagnose.ts` does), nothing answered, no such file, another HTTP status, too large,
 * larger than agreed, redirected on the GET, or not a zip. Cookies are never sent.
 */
import { clipText } from '$lib/core/text/clip';
import { escapeControl } from '$lib/core/text/escape-control';

export type BundleFailure =
	| { kind: 'offline' | 'cors' | 'unreachable' }
	| { kind: 'not-found' | 'http'; status: number }
	/** `bytes`: the size the server gave; null when the body ran past `max` with none given. */
	| { kind: 'too-large'; bytes: number | null; max: number }
	/** `type`: the Content-Type the server gave (escaped), '' for none. */
	| { kind: 'not-zip'; type: string }
	/** The GET sent more than the `agreed` bytes the HEAD said, and the user agreed to read. */
	| { kind: 'over-agreed'; agreed: number }
	/**
	 * The GET was redirected (or answered from another origin): nothing of it was read. `host`:
	 * where it pointed (escaped), '' when the browser does not say (an opaque redirect).
	 */
	| { kind: 'redirected'; host: string };

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

/** Options of {@link fetchBundle}. */
export interface BundleGetOptions extends BundleFetchOptions {
	/**
	 * The size the user agreed to open (the HEAD's): the GET is refused past it, whatever the
	 * bundle limit. @default null (the bundle limit alone)
	 */
	agreed?: number | null;
}

const INIT = { credentials: 'omit', cache: 'no-store' } as const;
/** The HEAD follows redirects so the page can name the host they end at; the GET follows none. */
const REDIRECT = { HEAD: 'follow', GET: 'manual' } as const;
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
		const redirect = REDIRECT[method];
		return await (options.fetchImpl ?? fetch)(url, {
			...INIT,
			method,
			mode: 'cors',
			redirect,
			signal
		});
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

/**
 * Refuses a GET answer that is a redirect (an opaque one, as a browser gives for `manual`, or a
 * 3xx, as Node's fetch does) or that comes from another origin than `url`'s.
 */
async function refuseRedirect(url: string, response: Response): Promise<void> {
	const { status, type } = response;
	const moved = type === 'opaqueredirect' || (status >= 300 && status < 400);
	const to = moved ? response.headers.get('location') : response.url;
	let host = '';
	try {
		const target = to ? new URL(to, url) : null;
		if (!moved && (!target || target.origin === new URL(url).origin)) return;
		host = target ? clipText(escapeControl(target.host), 200) : '';
	} catch {
		// A Location that is no URL: refused all the same, its host unknown.
	}
	await response.body?.cancel().catch(() => undefined);
	throw new BundleFetchError({ kind: 'redirected', host });
}

/**
 * The bundle's bytes, refused unless they begin as a zip does; read no further than `max`, nor
 * than `options.agreed` (the size the user agreed to), and never through a redirect.
 */
export async function fetchBundle(
	url: string,
	max: number,
	options: BundleGetOptions = {}
): Promise<Uint8Array> {
	const response = await request(url, 'GET', options);
	await refuseRedirect(url, response);
	checkStatus(response);
	const agreed = options.agreed ?? null;
	const declared = declaredSize(response, max);
	if (agreed !== null && declared !== null && declared > agreed) {
		await response.body?.cancel().catch(() => undefined);
		throw new BundleFetchError({ kind: 'over-agreed', agreed });
	}
	const chunks: Uint8Array[] = [];
	let total = 0;
	const reader = response.body?.getReader();
	for (let next = await reader?.read(); next && !next.done; next = await reader!.read()) {
		total += next.value.length;
		if (total > max || (agreed !== null && total > agreed)) {
			await reader!.cancel();
			throw new BundleFetchError(
				agreed !== null && agreed < max
					? { kind: 'over-agreed', agreed }
					: { kind: 'too-large', bytes: null, max }
			);
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

/**
 * The `bundle` parameter of a Results link (`/results?bundle=https://…/runs.zip`) read as a URL
 * the page may fetch, or why not. The link is hostile text: only http(s) without a user name or
 * password is taken, and what the page shows of it (the host, a refused link) has its control
 * characters escaped and is clipped. The host is the URL parser's (an IDN in its `xn--` form),
 * so a look-alike name cannot pass for another.
 */
import { clipText } from '$lib/core/text/clip';
import { escapeControl } from '$lib/core/text/escape-control';

/** A bundle URL the page may fetch, and the host it names to the user. */
export interface BundleLink {
	url: string;
	/** Escaped: safe to show as text. */
	host: string;
	/** The file name the bundle is called by in messages (escaped, clipped). */
	name: string;
}

/** Why a link is not fetched: not a URL, not http(s), or carrying a user name or password. */
export type LinkRefusal = 'not-url' | 'not-http' | 'credentials';

/** Longest part of a refused link or of a file name that is shown. */
export const SHOWN_CHARS = 120;

/** The text of `raw` as the page may show it. */
export const shownLink = (raw: string) => clipText(escapeControl(raw), SHOWN_CHARS);

export function readBundleLink(
	raw: string
): { link: BundleLink; refusal?: never } | { refusal: LinkRefusal; link?: never } {
	let url: URL;
	try {
		url = new URL(raw);
	} catch {
		return { refusal: 'not-url' };
	}
	if (url.protocol !== 'https:' && url.protocol !== 'http:') return { refusal: 'not-http' };
	if (url.username || url.password) return { refusal: 'credentials' };
	const last = url.pathname.split('/').pop() ?? '';
	let name: string;
	try {
		name = decodeURIComponent(last);
	} catch {
		name = last;
	}
	const host = escapeControl(url.host);
	return { link: { url: url.href, host, name: shownLink(name || host) } };
}

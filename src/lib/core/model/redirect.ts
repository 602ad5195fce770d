/**
 * What a model call does with a redirect, for the CLI's `node:http` fetch and the page's fetch
 * alike. `fetch` follows redirects itself, to any origin and without a body bound: a base URL
 * that redirects would send the case histories to a server the manifest does not name, and a
 * 301/302/303 turns the POST of a chat completion into a GET that arrives without its body
 * (which the server then answers with an unknown-model 404). So a call follows a redirect only
 * within the origin of the URL it asked, at most {@link MAX_REDIRECTS} times, keeping its method
 * and body (307, 308; a GET also after 301, 302, 303), and refuses every other one with
 * {@link RedirectRefused}, naming where it pointed (escaped, query values hidden as in base
 * URLs: `publicBaseUrl`).
 */
import { coded, type CoreText } from '../said';
import { clipText } from '../text/clip';
import { escapeControl } from '../text/escape-control';
import { publicBaseUrl } from './base-url';

/** Statuses that redirect (with a `Location`). */
export const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);
/** Redirects followed within one call before it is taken for a loop. */
export const MAX_REDIRECTS = 5;
/** Characters of a `Location` quoted in a message. */
const LOCATION_CHARS = 200;

export type RedirectRefusal = 'other_origin' | 'post_to_get' | 'loop' | 'hidden';

/** A redirect the call does not follow; its message is the sentence a user reads. */
export class RedirectRefused extends Error {
	readonly said: CoreText;
	constructor(
		readonly reason: RedirectRefusal,
		/** The redirect's status (0 when the browser hides it). */
		readonly status: number,
		/** Where it pointed, as shown (query values hidden, escaped, clipped); '' when hidden. */
		readonly location: string
	) {
		const text = refusalText(reason, status, location);
		super(text.english);
		this.said = text.said;
		this.name = 'RedirectRefused';
	}
}

function refusalText(
	reason: RedirectRefusal,
	status: number,
	location: string
): { english: string; said: CoreText } {
	switch (reason) {
		case 'other_origin':
			return {
				english:
					`the endpoint redirected (${status}) to ${location}, another origin than the base URL's: ` +
					'not followed, so no case is sent to a server the settings do not name; if that server ' +
					'is the right one, set the base URL to it',
				said: coded('redirect_other_origin', { status, location })
			};
		case 'post_to_get':
			return {
				english:
					`the endpoint redirected (${status}) to ${location}, which would turn this POST into a ` +
					'GET without its body (as fetch does for 301, 302 and 303): not followed; set the base ' +
					'URL to the address it redirects to',
				said: coded('redirect_post_to_get', { status, location })
			};
		case 'loop':
			return {
				english:
					`too many redirects (more than ${MAX_REDIRECTS}), the last (${status}) to ${location}: a ` +
					"redirect loop; check the base URL and the server's or proxy's redirect rules",
				said: coded('redirect_loop', { count: MAX_REDIRECTS, status, location })
			};
		case 'hidden':
			return {
				english:
					'the endpoint answered with a redirect, which this page does not follow: a browser ' +
					'does not tell a page where a redirect points, so the case histories could go to a ' +
					'server the settings do not name; set the base URL to the final address (the CLI, ' +
					'which follows redirects within one origin, names it)',
				said: coded('redirect_hidden', {})
			};
	}
}

/** A `Location` as a message may show it: query values hidden, escaped, at most 200 characters. */
export function shownLocation(location: string): string {
	return escapeControl(clipText(publicBaseUrl(location), LOCATION_CHARS));
}

/** The next request of a call that got a redirect it may follow. */
export interface RedirectHop {
	url: URL;
	method: string;
	/** False after a 303 (or a 301/302 of a GET): the next request carries no body. */
	keepBody: boolean;
}

/**
 * Where a call goes after `status` with `location`, as its `hops`-th redirect (1 for the first),
 * from `from` with `method`; throws {@link RedirectRefused} for a redirect it must not follow.
 */
export function nextHop(
	from: URL,
	status: number,
	location: string,
	method: string,
	hops: number
): RedirectHop {
	let url: URL;
	try {
		url = new URL(location, from);
	} catch {
		throw new RedirectRefused('other_origin', status, shownLocation(location));
	}
	const shown = shownLocation(url.href);
	if (hops > MAX_REDIRECTS) throw new RedirectRefused('loop', status, shown);
	if (url.origin !== from.origin || url.username || url.password) {
		throw new RedirectRefused('other_origin', status, shown);
	}
	const verb = method.toUpperCase();
	if (status === 307 || status === 308) return { url, method, keepBody: true };
	// 301, 302, 303: fetch sends a GET next (303: anything but HEAD); a call with a body loses it.
	if (verb === 'GET' || verb === 'HEAD') return { url, method, keepBody: false };
	throw new RedirectRefused('post_to_get', status, shown);
}

/**
 * Base URLs of OpenAI-compatible endpoints, for the CLI and the browser alike. A base URL ends
 * up in `manifest.json` (which bundles ship), in messages and in logs, so it must carry no
 * secret there: user-info (`http://user:pass@host/v1`) is refused outright (fetch cannot send
 * it anyway), and query values (`…/v1?token=…`) are sent with every request but never written
 * or shown: {@link publicBaseUrl} keeps the parameter names and hides the values.
 */
import { endpointKey } from '../names';
import { textHead } from '../text/clip';
import { redactKeys } from '../text/redact';
import { coded, type CoreText } from '../said';
import { english } from '../voice';

export type BaseUrlCheck =
	{ ok: true; url: string } | { ok: false; problem: string; said: CoreText };

/** How a value the user typed is quoted back: without any user-info, short, on one line. */
function quoted(value: string): string {
	const shown = value.replace(/\/\/[^/?#]*@/, '//…@');
	return JSON.stringify(shown.length > 200 ? `${textHead(shown, 200)}…` : shown);
}

/** A base URL refused for `said`; its `problem` is the English of it. */
function refused(said: CoreText): BaseUrlCheck {
	return { ok: false, problem: english(said), said };
}

/**
 * Checks a base URL: an http(s) URL without user name or password. `problem` completes a
 * sentence whose subject names the setting (`OPENAI_BASE_URL …`, `Judge: base URL …`) and
 * never repeats a password. The URL comes back trimmed, without trailing slashes (so equal
 * endpoints compare equal in manifests).
 */
export function checkBaseUrl(value: string): BaseUrlCheck {
	const text = value.trim();
	let url: URL;
	try {
		url = new URL(text);
	} catch {
		return refused(coded('base_url_not_url', { value: quoted(text) }));
	}
	if (url.protocol !== 'https:' && url.protocol !== 'http:') {
		return refused(coded('base_url_not_http', { value: quoted(text) }));
	}
	if (url.username || url.password) {
		const what = url.password ? 'credentials_user_password' : 'credentials_user';
		return refused(
			coded('base_url_credentials', { value: quoted(text) }, { what: [coded(what, {})] })
		);
	}
	return { ok: true, url: endpointKey(text) };
}

/**
 * The form of a base URL that may be written (manifest) and shown (messages, logs): user-info
 * removed, each query value replaced with `***` (names kept, so `?api-version=***` still says
 * what the endpoint needs), any fragment dropped, and runs of `keys` redacted. A URL with none
 * of these comes back unchanged.
 */
export function publicBaseUrl(value: string, keys: readonly string[] = []): string {
	let url: URL;
	try {
		url = new URL(value);
	} catch {
		return redactKeys(value.replace(/\/\/[^/?#]*@/, '//'), keys);
	}
	if (!url.username && !url.password && !url.search && !url.hash && !value.includes('@')) {
		return redactKeys(value, keys);
	}
	let out = `${url.protocol}//${url.host}${url.pathname}`;
	if (value.endsWith('/') === false && url.pathname === '/' && !url.search) out = out.slice(0, -1);
	const names = [...new Set(url.searchParams.keys())];
	if (names.length) out += `?${names.map((n) => `${encodeURIComponent(n)}=***`).join('&')}`;
	return redactKeys(out, keys);
}

/**
 * What the `openai` package needs to call a base URL: the URL without its query, and the query
 * as `defaultQuery` (the SDK appends paths to the base URL as text, which would put
 * `/chat/completions` inside a query).
 */
export function sdkTarget(value: string): {
	baseURL: string;
	defaultQuery?: Record<string, string>;
} {
	let url: URL;
	try {
		url = new URL(value);
	} catch {
		return { baseURL: value };
	}
	if (!url.search) return { baseURL: value.replace(/#.*$/, '') };
	const defaultQuery = Object.fromEntries(url.searchParams);
	url.search = '';
	url.hash = '';
	return { baseURL: endpointKey(url.toString()), defaultQuery };
}

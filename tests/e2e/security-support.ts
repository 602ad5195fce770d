/**
 * Shared pieces of the security end-to-end tests: hostile text (markup, script, `javascript:`
 * URLs, Svelte-looking tags, a closing `</textarea>`, right-to-left overrides), a check that a
 * page shows it as inert text, and dumps of everything a page can keep (IndexedDB, Web Storage,
 * cookies, caches, lock names) to search for a canary key.
 */
import { expect } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { escapeControl } from '../../src/lib/core/text/escape-control';

/**
 * Hostile text tagged with `where`: each piece, if it ever ran, would set `window.__xss` to a
 * value naming the place it came from.
 */
export function hostile(where: string): string {
	return [
		`<img src=x onerror="window.__xss='${where}'">`,
		`<script>window.__xss='${where}'</script>`,
		`<a href="javascript:window.__xss='${where}'">链接</a>`,
		`javascript:window.__xss='${where}'`,
		`{@html '<b data-xss>${where}</b>'}`,
		`</textarea><svg onload="window.__xss='${where}'">`,
		// U+202E RIGHT-TO-LEFT OVERRIDE … U+202C POP DIRECTIONAL FORMATTING
		`\u202Egnp.${where}\u202C`
	].join(' ');
}

/** A short hostile value for fields that are shown in narrow places (ids, case numbers). */
export const shortHostile = (where: string) => `<img src=x onerror="window.__xss='${where}'">`;

/** Elements that hostile text would create if it were ever parsed as HTML. */
const INJECTED =
	'img[src="x"], script, iframe, svg[onload], [onerror], [onload], [onclick], a[href^="javascript"], [data-xss]';

/**
 * The page shows every text in `texts` literally inside `scope` (a message quoting provider
 * text may show its control and bidi characters escaped, as every message does), holds no
 * element that the hostile text would create, and nothing ran.
 */
export async function expectInert(page: Page, scope: Locator, texts: string[]): Promise<void> {
	const shown = await scope.innerText();
	for (const text of texts) {
		const literal = shown.includes(text) || shown.includes(escapeControl(text));
		expect(literal, `shown literally: ${text}\nin: ${shown.slice(0, 2000)}`).toBe(true);
	}
	const injected = await scope.evaluate(
		(root, selector) =>
			[...root.querySelectorAll(selector)].map((el) => el.outerHTML.slice(0, 120)),
		INJECTED
	);
	expect(injected).toEqual([]);
	expect(await page.evaluate(() => (window as { __xss?: unknown }).__xss)).toBeUndefined();
}

/** Opens every `<details>` under `scope`, so nothing folded is left out of a check. */
export async function openAllDetails(scope: Locator): Promise<void> {
	await scope.evaluate((root) => {
		for (const d of root.querySelectorAll('details')) d.setAttribute('open', '');
	});
}

/**
 * Everything the page's origin keeps, as searchable text, by place: every object store of every
 * IndexedDB database (bytes and blobs decoded as UTF-8), localStorage, sessionStorage, cookies,
 * Cache Storage and held or pending Web Lock names.
 */
export async function dumpOriginStorage(page: Page): Promise<Record<string, string>> {
	return page.evaluate(async () => {
		const out: Record<string, string> = {};
		const decoder = new TextDecoder();
		const plain = async (v: unknown): Promise<unknown> => {
			if (v instanceof Blob) return await v.text();
			if (v instanceof ArrayBuffer) return decoder.decode(v);
			if (ArrayBuffer.isView(v)) return decoder.decode(v);
			if (Array.isArray(v)) return Promise.all(v.map(plain));
			if (v && typeof v === 'object') {
				const entries = await Promise.all(
					Object.entries(v).map(async ([k, x]) => [k, await plain(x)] as const)
				);
				return Object.fromEntries(entries);
			}
			return v;
		};
		const request = <T>(r: IDBRequest<T>) =>
			new Promise<T>((ok, fail) => {
				r.onsuccess = () => ok(r.result);
				r.onerror = () => fail(r.error);
			});
		for (const { name } of await indexedDB.databases()) {
			if (!name) continue;
			const db = await request(indexedDB.open(name));
			for (const store of db.objectStoreNames) {
				const tx = db.transaction(store);
				const keys = await request(tx.objectStore(store).getAllKeys());
				const values = await request(tx.objectStore(store).getAll());
				out[`IndexedDB ${name}/${store} (${values.length} entries)`] = JSON.stringify({
					keys,
					values: await plain(values)
				});
			}
			db.close();
		}
		for (const [label, storage] of [
			['localStorage', localStorage],
			['sessionStorage', sessionStorage]
		] as const) {
			for (let i = 0; i < storage.length; i++) {
				const key = storage.key(i)!;
				out[`${label} ${key}`] = `${key}=${storage.getItem(key)}`;
			}
		}
		out.cookies = document.cookie;
		if ('caches' in globalThis) {
			for (const name of await caches.keys()) {
				const cache = await caches.open(name);
				const requests = await cache.keys();
				out[`Cache ${name}`] = JSON.stringify(requests.map((r) => r.url));
			}
		}
		const locks = await navigator.locks.query();
		out['Web Locks'] = JSON.stringify(
			[...(locks.held ?? []), ...(locks.pending ?? [])].map((l) => l.name)
		);
		return out;
	});
}

/** The places (and a snippet around the hit) whose text contains `needle`. */
export function placesHolding(places: Record<string, string>, needle: string): string[] {
	return Object.entries(places)
		.filter(([, text]) => text.includes(needle))
		.map(([place, text]) => {
			const at = text.indexOf(needle);
			return `${place}: …${text.slice(Math.max(0, at - 80), at + needle.length + 20)}…`;
		});
}

/**
 * Removes from `problems` what a scripted provider error legitimately leaves in the browser's
 * log (the HTTP status of a call to `baseURL`, and Chromium's "Failed to load resource" line for
 * it) and returns everything else, which a test expects to be empty.
 */
export function withoutProviderErrors(problems: string[], baseURLs: string[]): string[] {
	const statuses = new Set<string>();
	const rest = problems.filter((p) => {
		const http = /^HTTP (\d{3}) for (\S+)$/.exec(p);
		if (http && baseURLs.some((b) => http[2].startsWith(b))) {
			statuses.add(http[1]);
			return false;
		}
		return true;
	});
	return rest.filter((p) => {
		const failed = /Failed to load resource: the server responded with a status of (\d{3})/.exec(p);
		return !(failed && statuses.has(failed[1]));
	});
}

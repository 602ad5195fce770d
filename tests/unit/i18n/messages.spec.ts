/**
 * The interface's two languages stay complete: every message exists in en and zh-CN with the
 * same placeholders, every message the code calls exists, and none is left unused.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { localeFor } from '../../../src/lib/state/locale-choice';

const ROOT = resolve(import.meta.dirname, '../../..');
/** The message files the inlang project names: one per area and language (`{locale}` filled). */
const PATTERNS = (() => {
	const settings = JSON.parse(readFileSync(join(ROOT, 'project.inlang/settings.json'), 'utf8'));
	const pattern: string | string[] = settings['plugin.inlang.messageFormat'].pathPattern;
	return Array.isArray(pattern) ? pattern : [pattern];
})();
const files = (locale: string) => PATTERNS.map((p) => join(ROOT, p.replace('{locale}', locale)));
const read = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
const load = (locale: string) =>
	Object.assign({}, ...files(locale).map(read)) as Record<string, unknown>;
const en = load('en');
const zh = load('zh-CN');
/**
 * The patterns of a message: itself, or for a message with variants (words that change with a
 * number, inlang's `[{ selectors, match }]`) each variant's. Null when it is neither.
 */
function patterns(message: unknown): string[] | null {
	if (typeof message === 'string') return [message];
	const [variants] = Array.isArray(message) ? message : [];
	const match = (variants as { match?: unknown } | undefined)?.match;
	if (message === null || typeof match !== 'object' || match === null) return null;
	const all = Object.values(match);
	return all.length && all.every((p) => typeof p === 'string') ? (all as string[]) : null;
}
/** The placeholders of every variant of a message, each once. */
const placeholders = (message: unknown) =>
	[
		...new Set(
			(patterns(message) ?? []).flatMap((p) => [...p.matchAll(/\{(\w+)\}/g)].map((m) => m[1]))
		)
	].sort();

function sourceFiles(dir: string): string[] {
	return readdirSync(dir).flatMap((name) => {
		const path = join(dir, name);
		if (name === 'paraglide') return [];
		if (statSync(path).isDirectory()) return sourceFiles(path);
		return /\.(svelte|ts)$/.test(name) ? [path] : [];
	});
}
const used = new Set(
	sourceFiles(join(ROOT, 'src'))
		.map((file) => readFileSync(file, 'utf8'))
		.filter((text) => text.includes("from '$lib/paraglide/messages'"))
		.flatMap((text) => [...text.matchAll(/\bm\.(\w+)\b/g)].map((m) => m[1]))
);

/** The core's texts (messages/core/): codes said by the core (`coded`), never called as `m.…`. */
const coreCodes = new Set(Object.keys(read(join(ROOT, 'messages/core/en.json'))));

describe('interface messages', () => {
	it('defines each key in one file only', () => {
		for (const locale of ['en', 'zh-CN']) {
			const seen = new Map<string, string>();
			for (const file of files(locale)) {
				for (const key of Object.keys(read(file))) {
					if (key.startsWith('$')) continue;
					expect(seen.get(key), `${key} in ${file}`).toBeUndefined();
					seen.set(key, file);
				}
			}
		}
	});

	it('has every key in both languages, as a non-empty string', () => {
		expect(Object.keys(zh).sort()).toEqual(Object.keys(en).sort());
		for (const [key, text] of [...Object.entries(en), ...Object.entries(zh)]) {
			if (key.startsWith('$')) continue;
			const all = patterns(text);
			expect(all !== null && all.every((p) => p.trim() !== ''), key).toBe(true);
		}
	});

	it('uses the same placeholders in both languages', () => {
		for (const key of Object.keys(en)) {
			if (key.startsWith('$')) continue;
			expect(placeholders(zh[key]), key).toEqual(placeholders(en[key]));
		}
	});

	it('defines every message the code calls, and keeps none that it does not', () => {
		const keys = new Set(Object.keys(en).filter((k) => !k.startsWith('$')));
		expect(
			[...used].filter((k) => !keys.has(k)),
			'called but missing'
		).toEqual([]);
		expect(
			[...keys].filter((k) => !used.has(k) && !coreCodes.has(k)),
			'defined but never called'
		).toEqual([]);
	});
});

describe('the first visit picks the language from the browser', () => {
	it.each([
		[['zh-CN', 'en'], 'zh-CN'],
		[['zh-TW'], 'zh-CN'],
		[['zh'], 'zh-CN'],
		[['en-GB', 'zh-CN'], 'en'],
		[['fr-FR', 'zh-HK'], 'zh-CN'],
		[['fr-FR', 'de'], 'en'],
		[[], 'en']
	])('%j → %s', (languages, locale) => {
		expect(localeFor(languages)).toBe(locale);
	});
});

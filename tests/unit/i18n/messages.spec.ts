/**
 * The interface's two languages stay complete: every message exists in en and zh-CN with the
 * same placeholders, every message the code calls exists, and none is left unused.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { localeFor } from '../../../src/lib/state/locale-choice';

const ROOT = resolve(import.meta.dirname, '../../..');
const load = (locale: string) =>
	JSON.parse(readFileSync(join(ROOT, 'messages', `${locale}.json`), 'utf8')) as Record<
		string,
		unknown
	>;
const en = load('en');
const zh = load('zh-CN');
const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

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
		.flatMap((text) => [...text.matchAll(/\bm\.(\w+)\(/g)].map((m) => m[1]))
);

describe('interface messages', () => {
	it('has every key in both languages, as a non-empty string', () => {
		expect(Object.keys(zh).sort()).toEqual(Object.keys(en).sort());
		for (const [key, text] of [...Object.entries(en), ...Object.entries(zh)]) {
			if (key.startsWith('$')) continue;
			expect(typeof text === 'string' && text.trim() !== '', key).toBe(true);
		}
	});

	it('uses the same placeholders in both languages', () => {
		for (const key of Object.keys(en)) {
			if (key.startsWith('$')) continue;
			expect(placeholders(String(zh[key])), key).toEqual(placeholders(String(en[key])));
		}
	});

	it('defines every message the code calls, and keeps none that it does not', () => {
		const keys = new Set(Object.keys(en).filter((k) => !k.startsWith('$')));
		expect(
			[...used].filter((k) => !keys.has(k)),
			'called but missing'
		).toEqual([]);
		expect(
			[...keys].filter((k) => !used.has(k)),
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

/**
 * Every text the core can give a code (`src/lib/core/said.ts`) has a message in both languages,
 * with exactly the parameters the code declares. The list comes from the code table itself, so a
 * code added to the core without its messages fails here.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CORE_CODES, CORE_TEXTS } from '../../../src/lib/core/said';

const ROOT = resolve(import.meta.dirname, '../../..');
const read = (locale: string) =>
	JSON.parse(readFileSync(join(ROOT, 'messages/core', `${locale}.json`), 'utf8')) as Record<
		string,
		string
	>;
const placeholders = (text: string) =>
	[...new Set([...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]))].sort();

describe('the core texts', () => {
	it('are declared', () => {
		expect(CORE_CODES.length).toBeGreaterThan(50);
	});

	it.each(['en', 'zh-CN'])('each code has a message in %s with its parameters', (locale) => {
		const messages = read(locale);
		const missing = CORE_CODES.filter((code) => typeof messages[`core_${code}`] !== 'string');
		expect(missing, `codes without a message in messages/core/${locale}.json`).toEqual([]);
		for (const code of CORE_CODES) {
			expect(placeholders(messages[`core_${code}`]), code).toEqual([...CORE_TEXTS[code]].sort());
		}
	});

	it('the settings name the message area', () => {
		const settings = readFileSync(join(ROOT, 'project.inlang/settings.json'), 'utf8');
		expect(settings).toContain('./messages/core/{locale}.json');
	});
});

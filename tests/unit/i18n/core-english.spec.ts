/**
 * The core's English comes from the messages catalogue (`src/lib/core/voice.ts` reads
 * `messages/core/en.json`), and the CLI prints it: it must be, byte for byte, what the English
 * literals at each call site said before they were removed. `tests/fixtures/core-english/today.json`
 * holds what those literals produced (captured from the unit suite before the change, one sample
 * per code or chain of codes, hostile values included); each is said again from its code here.
 * The same catalogue compiled by Paraglide must say every code alike, escapes included.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
	coded,
	paramsOf,
	readCoreTexts,
	type CoreCode,
	type CoreText
} from '../../../src/lib/core/said';
import { escapeForTerminal } from '../../../src/lib/core/text/escape-control';
import { english, fill } from '../../../src/lib/core/voice';
import { m } from '../../../src/lib/paraglide/messages';

const ROOT = resolve(import.meta.dirname, '../../..');

interface Sample {
	/** Where the sentence was made: a dataset problem, an error, a bundle problem. */
	kind: string;
	said: CoreText | CoreText[];
	/** What the literal said. */
	english: string;
}

const samples = JSON.parse(
	readFileSync(join(ROOT, 'tests/fixtures/core-english/today.json'), 'utf8')
) as Sample[];

/** Every code of the catalogue: its `core_*` messages. */
const CODES = Object.keys(
	JSON.parse(readFileSync(join(ROOT, 'messages/core/en.json'), 'utf8')) as object
).flatMap((key) => (key.startsWith('core_') ? [key.slice('core_'.length) as CoreCode] : []));

const codesOf = (said: CoreText | CoreText[]) =>
	('code' in said ? [said] : said).map((s) => s.code).join(' + ');

describe('the core’s English, from the catalogue', () => {
	it('has samples for most codes', () => {
		const seen = new Set(
			samples.flatMap((s) => ('code' in s.said ? [s.said] : s.said)).map((s) => s.code)
		);
		expect(seen.size).toBeGreaterThan(85);
	});

	it.each(samples.map((s) => [codesOf(s.said), s] as const))(
		'%s says what the literal said',
		(_, sample) => {
			// Read back as a store would keep it, so the sample is a valid coded text.
			const said = readCoreTexts('code' in sample.said ? [sample.said] : sample.said);
			expect(said, 'the sample is a coded text').not.toBeNull();
			// The CLI writes everything through escapeForTerminal: what a terminal shows is compared.
			expect(escapeForTerminal(english(said!))).toBe(escapeForTerminal(sample.english));
		}
	);
});

/** Sample parameters: a name, a number, and text that looks like the message syntax. */
function params(code: CoreCode, count: number): Record<string, string | number> {
	return Object.fromEntries(
		paramsOf(code)!.map((name, i) => [
			name,
			['count', 'complete'].includes(name) ? count : i % 2 ? `{${name}} \\ "q"` : `<${name}>`
		])
	);
}

describe('the catalogue, said by the core and by Paraglide', () => {
	const say = m as unknown as Record<string, (p: object, o: { locale: 'en' }) => string>;
	it.each(CODES.map((c) => [c]))('%s', (code) => {
		for (const count of [1, 2, 3]) {
			const p = params(code, count);
			expect(english(coded(code, p as never)), `count ${count}`).toBe(
				say[`core_${code}`](p, { locale: 'en' })
			);
		}
	});

	it('reads escapes as the inlang message format does', () => {
		expect(fill('a \\{b\\} \\\\ {c} {d', { c: 'C' })).toBe('a {b} \\ C {d');
		expect(() => fill('{missing}', {})).toThrow(/missing/);
	});
});

/**
 * Every code of the catalogue (`messages/core/`, `src/lib/core/said.ts`), rendered as a page
 * renders them (`src/lib/view/core-text.ts`): in English, the catalogue's own
 * sentence, the one the CLI prints; in Chinese, a sentence with no English word left in it but
 * the names `zh-latin.spec.ts` keeps (its KEPT list, read from that file so it stays one list).
 * Every parameter is a number here, so any Latin word in the Chinese comes from the messages.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { coded, paramsOf, type CoreCode, type CoreText } from '../../../src/lib/core/said';
import { english } from '../../../src/lib/core/voice';
import { overwriteGetLocale } from '../../../src/lib/paraglide/runtime';
import { coreText } from '../../../src/lib/view/core-text';

const ROOT = resolve(import.meta.dirname, '../../..');

/** Every code of the catalogue, in its order. */
function catalogueCodes(): CoreCode[] {
	const catalogue = JSON.parse(readFileSync(join(ROOT, 'messages/core/en.json'), 'utf8'));
	return Object.keys(catalogue).flatMap((k) =>
		k.startsWith('core_') ? [k.slice(5) as CoreCode] : []
	);
}

/** zh-latin.spec.ts's KEPT words: every quoted string of its list, split at spaces. */
function keptWords(): Set<string> {
	const source = readFileSync(join(ROOT, 'tests/unit/i18n/zh-latin.spec.ts'), 'utf8');
	const list = source.slice(source.indexOf('const KEPT = new Set('), source.indexOf('].flatMap('));
	const words = [...list.matchAll(/^\s*(['"])(.*)\1,?$/gm)].flatMap((m) => m[2].split(' '));
	return new Set(words);
}

const codes = catalogueCodes();
const KEPT = keptWords();

/** `code` with every parameter a number (a part's too, said from nothing). */
const sample = (code: CoreCode): CoreText =>
	coded(code, Object.fromEntries(paramsOf(code)!.map((name, i) => [name, i + 7])) as never);

function rendered(said: CoreText, locale: 'en' | 'zh-CN'): string {
	overwriteGetLocale(() => locale);
	return coreText(english(said), [said]);
}

/** The Latin words of `text`, a closing full stop left off. */
const latin = (text: string) =>
	[...text.matchAll(/[A-Za-z][A-Za-z0-9_.'-]*/g)].map((m) => m[0].replace(/\.$/, ''));

afterEach(() => overwriteGetLocale(() => 'en'));

describe('the core’s texts, rendered in both languages', () => {
	it('reads the codes and the kept words', () => {
		expect(codes.length).toBeGreaterThan(400);
		expect(codes).toContain('lock_left');
		expect(KEPT.has('lexpilot') && KEPT.has('case_number') && KEPT.has('ljp-gold')).toBe(true);
		expect(KEPT.has('the')).toBe(false);
	});

	it.each(codes.map((c) => [c]))('%s', (code) => {
		const said = sample(code);
		const en = rendered(said, 'en');
		expect(en).toBe(english(said));
		const zh = rendered(said, 'zh-CN');
		expect(latin(zh).filter((word) => !KEPT.has(word))).toEqual([]);
		// A message with words of its own (not a kept name: `case_number 7`) says them in Chinese.
		if (latin(en.replace(/--[\w-]+/g, '')).some((word) => word.length > 1 && !KEPT.has(word))) {
			expect(zh).not.toBe(en);
			expect(zh).toMatch(/[\u4e00-\u9fff]/);
		}
	});

	it('says a whole error, parts and all, without English', () => {
		const who = coded('lock_who', { pid: 4242, host: 'lab', started: '2026' });
		const said = coded('lock_left', { run: 'run 1', path: '/o/.lock' }, { who: [who] });
		expect(rendered(said, 'en')).toMatch(/was left by process 4242 on lab, started 2026, which/);
		expect(rendered(said, 'zh-CN')).toBe(
			'run 1：锁文件 /o/.lock 由一个已不在运行的进程留下（lab 上的进程 4242，启动于 2026）：运行被中断了。请确认没有其他 lexpilot 在写入这个运行，删除锁文件，然后重新运行以继续。'
		);
		const stages = coded(
			'stages_more',
			{ first: 'dcg' },
			{ rest: [coded('stages_two', { first: 'ljp-direct', last: 'ljp-gold' })] }
		);
		const saved = coded('upstream_saved_many', { total: 4 }, { stages: [stages] });
		expect(rendered(saved, 'en')).toMatch(/^\ndcg, ljp-direct and ljp-gold completed: 4 of 4/);
		expect(rendered(saved, 'zh-CN')).toMatch(
			/^\ndcg、ljp-direct 和 ljp-gold 已完成：每个阶段 4\/4/
		);
	});
});

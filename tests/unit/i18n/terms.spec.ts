/**
 * One word for each thing in Chinese: a benchmark case is 案例 on every page (the navigation
 * said 案例查看 while its page said 案件查看器), and each role and an endpoint have one name. Each term below lists the word that must not
 * stand for it, with the phrases where that word means something else and is right.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../../..');

const TERMS: { term: string; not: string; allowed: string[] }[] = [
	// 民事案件案由: the court's own title for its list of causes of action; 案件事实: the facts of
	// the matter, as the prompt pack's <案件事实> slot names them.
	{ term: '案例', not: '案件', allowed: ['民事案件案由', '案件事实'] },
	// The three roles keep the Models page's names on every page (the Run page's plan said
	// 被评测模型 and Rejudge said 评判模型).
	{ term: '被评估', not: '被评测', allowed: [] },
	{ term: '被评估模型', not: '被评模型', allowed: [] },
	{ term: '被评估模型', not: '被测模型', allowed: [] },
	{ term: '评审模型', not: '评判模型', allowed: [] },
	// An endpoint is 接口 (the Models page's 默认接口), not 端点; its address is Base URL.
	{ term: '接口', not: '端点', allowed: [] },
	{ term: 'Base URL', not: '基础 URL', allowed: [] },
	// Tokens are token on every page (the leaderboard said 令牌), and the paper's metric and LJP
	// setting names stay as the charts beside them show them (the leaderboard said 宏 F1, 直接, 金标).
	{ term: 'token', not: '令牌', allowed: [] },
	{ term: 'Macro-F1', not: '宏 F1', allowed: [] },
	{ term: 'QWK Gold', not: '金标', allowed: [] }
];

function zhFiles(dir: string): string[] {
	return readdirSync(dir).flatMap((name) => {
		const path = join(dir, name);
		if (statSync(path).isDirectory()) return zhFiles(path);
		return name === 'zh-CN.json' ? [path] : [];
	});
}

/** Every message of `file` as text, variants included. */
function texts(file: string): [string, string][] {
	const messages = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
	return Object.entries(messages)
		.filter(([key]) => !key.startsWith('$'))
		.map(([key, value]) => [key, JSON.stringify(value)]);
}

describe('Chinese terms', () => {
	const files = zhFiles(join(ROOT, 'messages'));

	it('reads every Chinese message file', () => {
		expect(files.length).toBeGreaterThanOrEqual(8);
	});

	it.each(TERMS)('says $term, never $not, for the same thing', ({ not, allowed }) => {
		const wrong = files.flatMap((file) =>
			texts(file)
				.filter(([, text]) => allowed.reduce((t, a) => t.replaceAll(a, ''), text).includes(not))
				.map(([key, text]) => `${file.slice(ROOT.length + 1)}: ${key}: ${text}`)
		);
		expect(wrong).toEqual([]);
	});
});

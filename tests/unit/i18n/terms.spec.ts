/**
 * One word for each thing in Chinese: a benchmark case is 案例 on every page (the navigation
 * said 案例查看 while its page said 案件查看器), and each role and an endpoint have one name. Each term below lists the word that must not
 * stand for it, with the phrases where that word means something else and is right. A Chinese
 * sentence takes the full-width colon (：); an ASCII one is left only between Latin characters
 * (a URL's port, a header, `user:password`).
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
	// An endpoint is 接口 (the Models page's 默认接口), not 端点; its address is 接口地址, in
	// Chinese on every page (plan rows said Base URL). The Models page's field alone glosses it, so
	// the CLI's --base-url and the docs can be matched to it.
	{ term: '接口', not: '端点', allowed: [] },
	{ term: '接口地址', not: '基础 URL', allowed: [] },
	{ term: '接口地址', not: 'Base URL', allowed: ['接口地址（Base URL）'] },
	// Tokens are token on every page (the leaderboard said 令牌), and the paper's metric and LJP
	// setting names stay as the charts beside them show them (the leaderboard said 宏 F1, 直接, 金标).
	// A figure per run is 每次运行… as the sort menu says it (the column said token/运行).
	{ term: 'token', not: '令牌', allowed: [] },
	{ term: '每次运行', not: '/运行', allowed: [] },
	{ term: 'Macro-F1', not: '宏 F1', allowed: [] },
	{ term: 'QWK Gold', not: '金标', allowed: [] },
	// The benchmark's own words: an underspecified history lacks information (信息缺失, as Inspect
	// and Results say it), DCG forces a follow-up question (强制追问), LJP predicts a verdict (判决,
	// as the dataset's claims say it).
	{ term: '信息缺失', not: '信息不全', allowed: [] },
	{ term: '强制追问', not: '强制提问', allowed: [] },
	{ term: '判决', not: '裁决', allowed: [] },
	// A person who checks the judge is 复核人; 评审 belongs to the judge (评审模型).
	{ term: '复核人', not: '评审人', allowed: [] },
	// The model that plays the client is the user model (用户模型) on every page; 模拟 is the
	// simulated provider's word alone (模拟接口, the in-page fake endpoint for demos), so the two
	// are never taken for each other (the Models page said 模拟当事人 beside 模拟模型).
	{ term: '用户模型', not: '模拟当事人', allowed: [] },
	{ term: '用户模型', not: '模拟用户', allowed: [] },
	{ term: '模拟接口', not: '模拟模型', allowed: [] }
];

function zhFiles(dir: string): string[] {
	return readdirSync(dir).flatMap((name) => {
		const path = join(dir, name);
		if (statSync(path).isDirectory()) return zhFiles(path);
		return name === 'zh-CN.json' ? [path] : [];
	});
}

function svelteFiles(dir: string): string[] {
	return readdirSync(dir).flatMap((name) => {
		const path = join(dir, name);
		if (statSync(path).isDirectory()) return name === 'paraglide' ? [] : svelteFiles(path);
		return name.endsWith('.svelte') ? [path] : [];
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

	it('puts a label’s colon in the message catalogue, not in a page template', () => {
		// `{m.label()}: value`, `${m.label()}: ${value}` or `>LCA: {value}` print an ASCII colon in
		// every language; `m.label_colon` gives Chinese its ：(Inspect's LCA badge said "LCA: 作答").
		const inTemplate = /\{m\.\w+\((?:[^{}]|\{[^{}]*\})*\)\}:|>[A-Za-z]+: \{/g;
		const wrong = svelteFiles(join(ROOT, 'src')).flatMap((file) =>
			[...readFileSync(file, 'utf8').matchAll(inTemplate)].map(
				(hit) => `${file.slice(ROOT.length + 1)}: ${hit[0]}`
			)
		);
		expect(wrong).toEqual([]);
	});

	it('writes a full-width colon in a Chinese sentence', () => {
		// A colon after or before a Chinese character, a full-width bracket or a placeholder.
		const ascii = /[\u3000-\u9fff\uff00-\uffef}]\s*:|:\s*[\u3000-\u9fff\uff00-\uffef{]/;
		const wrong = files.flatMap((file) =>
			texts(file)
				.filter(([, text]) => ascii.test(text.replace(/"[A-Za-z]+":/g, '')))
				.map(([key, text]) => `${file.slice(ROOT.length + 1)}: ${key}: ${text}`)
		);
		expect(wrong).toEqual([]);
	});
});

import { describe, expect, it } from 'vitest';
import { UsageError } from '../errors';
import { canonicalJson, sha256Hex } from '../hash';
import {
	DEFAULT_PROMPT_PACK,
	TEMPLATE_NAMES,
	claimsText,
	codeSha256,
	exportPromptPack,
	fillTemplate,
	parseFilledPrompt,
	parsePromptPack,
	promptPackProblems,
	promptsSha256,
	taskOfPrompt,
	type PromptPack,
	type TemplateName
} from './index';

function withTemplate(name: TemplateName, text: string): PromptPack {
	return { ...DEFAULT_PROMPT_PACK, templates: { ...DEFAULT_PROMPT_PACK.templates, [name]: text } };
}

describe('default prompt pack', () => {
	it('is valid and puts every history inside <对话历史>', () => {
		expect(promptPackProblems(DEFAULT_PROMPT_PACK)).toEqual([]);
		for (const name of ['lexawn', 'force_ask', 'force_judge', 'user_standard'] as const) {
			expect(DEFAULT_PROMPT_PACK.templates[name]).toContain('<对话历史>{history}</对话历史>');
		}
	});

	it('never gives hidden facts to the evaluated model prompts', () => {
		for (const name of ['lexawn', 'force_ask', 'force_judge'] as const) {
			expect(DEFAULT_PROMPT_PACK.templates[name]).not.toMatch(
				/\{(key_details|focal_points|claims)\}/
			);
		}
	});

	it('ends each judge prompt with its PROTOCOL.md §3 JSON contract', () => {
		expect(DEFAULT_PROMPT_PACK.templates.judge_lca).toContain(
			'{"label": "澄清"} 或 {"label": "直接判断"}'
		);
		expect(DEFAULT_PROMPT_PACK.templates.judge_dcg).toContain('{"label": "是"} 或 {"label": "否"}');
		expect(DEFAULT_PROMPT_PACK.templates.judge_extract).toContain('{"verdicts": [');
	});
});

describe('prompt pack validation', () => {
	const cases: { what: string; pack: unknown; problem: RegExp }[] = [
		{
			what: 'a required slot removed',
			pack: withTemplate('judge_extract', '诉讼请求：{claims}'),
			problem: /template "judge_extract": missing slot \{response\}/
		},
		{
			what: 'hidden facts added to the evaluated prompt',
			pack: withTemplate('lexawn', '<对话历史>{history}</对话历史>\n{key_details}'),
			problem: /template "lexawn": unknown slot \{key_details\}/
		},
		{
			what: 'gold claims added to the LCA judge',
			pack: withTemplate('judge_lca', '{response} {claims}'),
			problem: /template "judge_lca": unknown slot \{claims\}/
		},
		{
			what: 'history outside its tag',
			pack: withTemplate('force_ask', '对话：{history}'),
			problem: /template "force_ask": \{history\} must sit inside <对话历史>/
		},
		{
			what: 'a template missing',
			pack: {
				...DEFAULT_PROMPT_PACK,
				templates: Object.fromEntries(
					Object.entries(DEFAULT_PROMPT_PACK.templates).filter(([k]) => k !== 'judge_dcg')
				)
			},
			problem: /template "judge_dcg" is missing/
		},
		{
			what: 'an unknown template',
			pack: {
				...DEFAULT_PROMPT_PACK,
				templates: { ...DEFAULT_PROMPT_PACK.templates, judge_x: 'x' }
			},
			problem: /unknown template\(s\) judge_x/
		},
		{
			what: 'an empty name',
			pack: { ...DEFAULT_PROMPT_PACK, name: ' ' },
			problem: /name: name must not be empty/
		}
	];
	it.each(cases)('refuses $what, naming template and slot', ({ pack, problem }) => {
		const problems = promptPackProblems(pack);
		expect(
			problems.some((p) => problem.test(p)),
			problems.join('\n')
		).toBe(true);
		expect(() => parsePromptPack(JSON.stringify(pack))).toThrow(UsageError);
	});

	it('reports every problem at once', () => {
		const pack = withTemplate('judge_extract', '{claims}{focal_points}');
		const problems = promptPackProblems({ ...pack, version: '' });
		expect(problems).toHaveLength(3);
	});

	it('round-trips through export and import, BOM included', () => {
		const text = exportPromptPack(DEFAULT_PROMPT_PACK);
		expect(parsePromptPack(text)).toEqual(DEFAULT_PROMPT_PACK);
		expect(parsePromptPack(`\uFEFF${text}`)).toEqual(DEFAULT_PROMPT_PACK);
	});

	it('says when the import is not JSON', () => {
		expect(() => parsePromptPack('{"name":')).toThrow(/prompt pack: not valid JSON/);
	});
});

describe('fillTemplate', () => {
	it('fills every slot once, inserting values literally', () => {
		const filled = fillTemplate(DEFAULT_PROMPT_PACK, 'lexawn', { history: 'User: 见 {response}' });
		expect(filled).toContain('<对话历史>User: 见 {response}</对话历史>');
		expect(filled).not.toContain('{history}');
	});

	it('names the template when a slot has no value', () => {
		expect(() => fillTemplate(DEFAULT_PROMPT_PACK, 'judge_extract', { claims: '1. x' })).toThrow(
			/template "judge_extract": no value for slot \{response\}/
		);
	});

	it('refuses a slot the template may not use even if a value is given', () => {
		const pack = withTemplate('force_judge', '<对话历史>{history}</对话历史>{claims}');
		expect(() => fillTemplate(pack, 'force_judge', { history: 'h', claims: 'c' })).toThrow(
			/template "force_judge": unknown slot \{claims\}/
		);
	});

	it('numbers claims in the order given, integer-like texts included', () => {
		expect(claimsText(['2', '1', '判令被告支付货款'])).toBe('1. 2\n2. 1\n3. 判令被告支付货款');
	});
});

describe('hashes', () => {
	it('promptsSha256 is the SHA-256 of the canonical JSON and follows every edit', async () => {
		const base = await promptsSha256(DEFAULT_PROMPT_PACK);
		expect(base).toBe(await sha256Hex(canonicalJson(DEFAULT_PROMPT_PACK)));
		const edited = withTemplate('lexawn', `${DEFAULT_PROMPT_PACK.templates.lexawn}。`);
		expect(await promptsSha256(edited)).not.toBe(base);
		const reordered = JSON.parse(
			JSON.stringify({
				templates: DEFAULT_PROMPT_PACK.templates,
				version: '1',
				name: DEFAULT_PROMPT_PACK.name
			})
		);
		expect(await promptsSha256(reordered)).toBe(base);
	});

	it('codeSha256 covers the protocol version and the pack', async () => {
		const code = await codeSha256(DEFAULT_PROMPT_PACK);
		expect(code).toMatch(/^[0-9a-f]{64}$/);
		expect(code).not.toBe(await promptsSha256(DEFAULT_PROMPT_PACK));
		expect(await codeSha256({ ...DEFAULT_PROMPT_PACK, version: '2' })).not.toBe(code);
	});
});

describe('taskOfPrompt', () => {
	it.each(TEMPLATE_NAMES)('recognises a filled %s prompt', (name) => {
		const filled = fillTemplate(DEFAULT_PROMPT_PACK, name, {
			history: 'User: 你好',
			key_details: 'k',
			focal_points: 'f',
			question: 'q',
			response: 'r',
			claims: '1. c'
		});
		expect(taskOfPrompt(filled, DEFAULT_PROMPT_PACK)).toBe(name);
	});

	it('reads the slot values back', () => {
		const values = {
			key_details: '借款5万元\n有借条',
			history: 'User: 他不还钱',
			question: '有借条吗？'
		};
		const filled = fillTemplate(DEFAULT_PROMPT_PACK, 'user_standard', values);
		expect(parseFilledPrompt(filled, DEFAULT_PROMPT_PACK)).toEqual({
			task: 'user_standard',
			values
		});
	});

	it('returns null for a foreign prompt', () => {
		expect(taskOfPrompt('ping', DEFAULT_PROMPT_PACK)).toBeNull();
	});
});

/**
 * The core's coded texts rendered in the interface language (view/core-text.ts), family by family
 * (dataset problems, connection diagnoses, run errors, resume refusals, category map problems).
 * One file because every block shares the locale switch, the bad-input corpus and the check that
 * no English sentence is left in a Chinese line (`englishIn`), and it tests one function.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BAD_INPUT_DIR, readCorpus } from '../../../tests/fixtures/bad-input/corpus';
import { datasetBytes, validCase } from '../../../tests/fixtures/datasets/factory';
import { loadDataset, type DatasetProblem } from '$lib/core/dataset/load';
import { coded } from '$lib/core/said';
import { corsHintSaid, testConnection, type ConnectionTestResult } from '$lib/core/model/diagnose';
import { startFakeOpenAI, type FakeOpenAI } from '../../../tests/fake-openai/server';
import { failureSaid } from '$lib/core/model/failure-message';
import { createOpenAIClient } from '$lib/core/model/openai-client';
import { completeJudge, JudgeDcgOutput } from '$lib/core/model/output';
import type { ModelClient } from '$lib/core/model/types';
import type { Failure } from '$lib/core/model/retry';
import { naming } from '$lib/core/engine/run-stages';
import type { Case } from '$lib/core/dataset/types';
import { saidOf } from '$lib/core/errors';
import { parseCategoryMap } from '$lib/core/dataset/categories';
import { MemoryStore } from '$lib/core/store/memory-store';
import { loadCheckpoint, openRun } from '$lib/core/store/resume';
import { recordIdentity } from '$lib/core/store/identity';
import { stageFilePath } from '$lib/core/layout';
import { toJsonLine } from '$lib/core/jsonl';
import { fakeSha, makeA1, makeManifest } from '../../../tests/support/record-factories';
import { overwriteGetLocale, type Locale } from '$lib/paraglide/runtime';
import { coreText, problemField, problemLine, problemMessage, sayCore } from './core-text';

const inLocale = (locale: Locale) => overwriteGetLocale(() => locale);
afterEach(() => inLocale('en'));

async function problemsOf(bytes: Uint8Array, options = {}): Promise<DatasetProblem[]> {
	const result = await loadDataset(bytes, options);
	if (result.ok) return result.warnings;
	return result.problems;
}

/** Every file of the bad-input corpus, loaded as the Dataset page loads it. */
const corpus = readCorpus()
	.filter((entry) => !entry.categories && entry.file !== 'valid.json')
	.map((entry) => {
		const flag = (name: string) => {
			const at = entry.flags?.indexOf(name) ?? -1;
			return at >= 0 ? entry.flags![at + 1] : undefined;
		};
		const historyFields = Object.fromEntries(
			[
				['complete', flag('--complete-field')],
				['underspecified', flag('--underspecified-field')]
			].filter(([, v]) => v)
		);
		return { ...entry, historyFields };
	});

/**
 * English words left in a Chinese line, once what is data or a name is taken out: quoted values,
 * JSON field and type names (`case_number`, `string`), role names. Two English words in a row
 * are a sentence the translation missed.
 */
function englishIn(line: string): string[] {
	const stripped = line
		.replace(/"[^"]*"/g, ' ')
		.replace(/\b(?:string|number|object|array|null|boolean|true|false|user|assistant)\b/g, ' ')
		.replace(/\b[a-z]+(?:_[a-z]+)+\b/g, ' ')
		.replace(/\bBase URL\b|\bcase_number\b|\bJSON\b|\bUTF-(?:8|16)\b|\bGBK\b/g, ' ');
	return [...stripped.matchAll(/[A-Za-z]{2,}(?:[ ,]+[A-Za-z]{2,})+/g)].map((m) => m[0]);
}

describe('dataset problems in the interface language', () => {
	it('gives every problem of the bad-input corpus a code', async () => {
		let seen = 0;
		for (const entry of corpus) {
			const bytes = new Uint8Array(readFileSync(join(BAD_INPUT_DIR, 'datasets', entry.file)));
			for (const p of await problemsOf(bytes, { historyFields: entry.historyFields })) {
				expect(p.said, `${entry.file}: ${p.text}`).toBeDefined();
				seen++;
			}
		}
		expect(seen).toBeGreaterThan(corpus.length);
	});

	it('says each of them in Chinese, positions and quoted values as the core has them', async () => {
		inLocale('zh-CN');
		for (const entry of corpus) {
			const bytes = new Uint8Array(readFileSync(join(BAD_INPUT_DIR, 'datasets', entry.file)));
			for (const p of await problemsOf(bytes, { historyFields: entry.historyFields })) {
				const line = problemLine(p);
				// The reader's own syntax detail (JSON parser, decoder) is the one English kept.
				const kept = p.said?.code === 'json_syntax' ? String(p.said.params.detail) : '';
				expect(englishIn(line.replace(kept, '')), `${entry.file}: ${line}`).toEqual([]);
				expect(line).toMatch(/[\u4e00-\u9fff]/);
				if (p.caseIndex !== null) expect(line).toContain(`案例 #${p.caseIndex}`);
				if (p.caseNumber !== null) expect(line).toContain(`（case_number ${p.caseNumber}）`);
				if (p.messageIndex !== null) expect(line).toContain(`消息 ${p.messageIndex}：`);
			}
		}
	});

	it('reads like the example: place, zero-based positions, the roles as written', async () => {
		const history = (roles: string[]) => roles.map((role, i) => ({ role, content: `第 ${i} 条` }));
		const cases = [
			...Array.from({ length: 17 }, (_, i) => validCase(i + 1)),
			validCase(18, {
				case_number: '2023-041',
				complete_consultation: history(['user', 'assistant', 'user', 'assistant', 'user']),
				underspecified_consultation: history(['user', 'assistant', 'user', 'user', 'assistant'])
			})
		];
		const [p] = await problemsOf(datasetBytes(cases));
		expect(p.text).toBe(
			'case #17 (case_number 2023-041) underspecified history, message 3: expected role "assistant", got "user"'
		);
		inLocale('zh-CN');
		expect(problemLine(p)).toBe(
			'案例 #17（case_number 2023-041）信息缺失历史，消息 3：应为 "assistant"，实为 "user"'
		);
		expect(problemMessage(p)).toBe('应为 "assistant"，实为 "user"');
		expect(problemField(p.field!)).toBe('信息缺失历史');
		expect(problemField('result_dict')).toBe('result_dict');
		inLocale('en');
		expect(problemLine(p)).toBe(p.text);
	});

	it('keeps hostile values escaped, as the core quotes them', async () => {
		const evil = 'A\u001b[2J\u202eB';
		const [p] = await problemsOf(
			datasetBytes([
				validCase(1, { case_number: evil, result_dict: { [`${'长'.repeat(40)}\u0007`]: '赢' } })
			])
		);
		inLocale('zh-CN');
		const line = problemLine(p);
		// eslint-disable-next-line no-control-regex
		expect(line).not.toMatch(/[\u0000-\u001f\u202e]/);
		expect(line).toContain('A\\u001b[2J\\u202eB');
		expect(line).toContain(`"${'长'.repeat(30)}…"`);
		expect(line).toContain('判决 "赢" 不是 支持、部分支持和驳回 之一');
	});

	it('joins the reasons of an undecided history mapping in Chinese', async () => {
		const c = (n: number) => ({
			...validCase(n),
			complete_consultation: undefined,
			underspecified_consultation: undefined,
			a: [{ role: 'user', content: 'x' }],
			b: [{ role: 'user', content: 'x' }]
		});
		const [p] = await problemsOf(datasetBytes([c(1), c(2)]));
		inLocale('zh-CN');
		expect(problemLine(p)).toBe(
			'历史字段：无法确定哪些字段分别是完整历史和信息缺失历史（没有哪个消息数组字段的名称能标明完整历史；' +
				'没有哪个消息数组字段的名称能标明信息缺失历史；含有消息列表的字段：a, b）。请在字段映射中指定。'
		);
	});
});

describe('core texts without a code', () => {
	it('fall back to the English the core wrote', () => {
		inLocale('zh-CN');
		expect(coreText('a new problem', undefined)).toBe('a new problem');
		expect(coreText('no case', coded('no_cases', {}))).toBe('文件中没有案例');
		const english: DatasetProblem = {
			caseIndex: 2,
			caseNumber: 'X',
			field: 'f',
			messageIndex: null,
			message: 'odd',
			text: 'case #2 (case_number X) f: odd'
		};
		expect(problemLine(english)).toBe(english.text);
		expect(problemMessage(english)).toBe('odd');
	});

	it('say their parameters escaped even when the caller forgot', () => {
		inLocale('zh-CN');
		expect(sayCore(coded('history_missing', { name: 'x\u001by' }))).toBe(
			'缺失（字段 "x\\u001by"）'
		);
	});
});

describe('Test connection in the interface language', () => {
	const servers: FakeOpenAI[] = [];
	afterEach(async () => {
		await Promise.all(servers.splice(0).map((s) => s.close()));
	});
	const serve = async (options: Parameters<typeof startFakeOpenAI>[0] = {}) => {
		const s = await startFakeOpenAI(options);
		servers.push(s);
		return s;
	};
	const endpoint = (baseURL: string, apiKey = 'sk-test', model = 'fake-model') => ({
		baseURL,
		apiKey,
		model
	});
	/** What the Models page shows: the message and the hint, in the language of the moment. */
	const shown = (r: ConnectionTestResult) =>
		[coreText(r.message, r.said), r.hint === undefined ? '' : coreText(r.hint, r.hintSaid)]
			.join('\n')
			.trim();

	it('a wrong key: refused, the provider quoted, the key never shown', async () => {
		const server = await serve({ requireKey: 'the-right-key' });
		const r = await testConnection(endpoint(server.baseURL, 'sk-wrong-key-999'));
		inLocale('zh-CN');
		const text = shown(r);
		expect(text).toMatch(new RegExp(`^${server.baseURL.replace(/[.]/g, '\\.')} 拒绝了密钥（401：`));
		expect(text).toContain('请检查该角色的 API 密钥');
		expect(text).not.toContain('sk-wrong-key-999');
		expect(englishIn(text.replace(/（401：.*）/, ''))).toEqual([]);
		inLocale('en');
		expect(shown(r)).toBe(`${r.message}\n${r.hint}`);
	});

	it('a server that is down: unreachable, with what to check', async () => {
		const server = await serve();
		await server.close();
		const r = await testConnection(endpoint(server.baseURL));
		inLocale('zh-CN');
		expect(shown(r)).toBe(
			`无法连接到 ${server.baseURL}。\n${server.baseURL} 没有任何应答：请检查服务器是否在运行、` +
				'主机和端口是否正确。通过 https 提供的页面不能调用 localhost 以外的 http:// 接口（混合内容）。'
		);
	});

	it('a key with an invisible character, an unknown model, a working endpoint', async () => {
		const server = await serve({ knownModels: ['qwen3:8b'] });
		inLocale('zh-CN');
		const bad = await testConnection(endpoint(server.baseURL, 'sk-abc\u200bdef'));
		expect(shown(bad)).toContain('API 密钥含有无法放入 HTTP 请求头的字符（第 7 位的 U+200B；');
		const unknown = await testConnection(endpoint(server.baseURL, 'sk-test', 'qwen3-8b'));
		expect(shown(unknown)).toBe(
			`${server.baseURL} 不认识模型 "qwen3-8b"。\n它列出的模型：qwen3:8b。`
		);
		const ok = await testConnection(endpoint(server.baseURL, 'sk-test', 'qwen3:8b'));
		expect(shown(ok)).toBe(`${server.baseURL} 上的 qwen3:8b 在 ${ok.latencyMs} 毫秒内作答。`);
		const notUrl = await testConnection(endpoint('not a url'));
		expect(shown(notUrl)).toBe(
			'接口地址不是 URL："not a url"（应形如 https://host/v1）。\n' +
				'请填写完整的接口地址，例如 https://api.openai.com/v1 或 http://localhost:11434/v1。'
		);
	});

	it('the provider fix for CORS names the page origin', () => {
		inLocale('zh-CN');
		expect(sayCore(corsHintSaid('ollama', 'http://127.0.0.1:4173'))).toContain(
			'OLLAMA_ORIGINS="http://127.0.0.1:4173" ollama serve'
		);
		for (const provider of ['lmstudio', 'vllm', 'llamacpp', 'openai', 'generic'] as const) {
			expect(
				englishIn(
					sayCore(corsHintSaid(provider)).replace(/Enable CORS|LM Studio|npm run lexpilot/g, '')
				)
			).toEqual([]);
		}
	});
});

describe('run errors in the interface language', () => {
	const context = {
		caseNumber: '2023-041',
		role: 'judge' as const,
		model: 'judge-model',
		baseURL: 'http://127.0.0.1:9/v1',
		attempts: 4,
		maxTokens: 512,
		timeoutMs: 60_000
	};
	const failures: Failure[] = [
		{ kind: 'auth', retryable: false, status: 401, detail: 'Incorrect API key provided' },
		{ kind: 'not_found', retryable: false, status: 404, detail: 'no such model' },
		{ kind: 'bad_request', retryable: false, status: 400, detail: 'max_tokens too large' },
		{ kind: 'rate_limit', retryable: true, status: 429, detail: 'slow down' },
		{ kind: 'server', retryable: true, status: 500, detail: 'GPU on fire' },
		{ kind: 'timeout', retryable: true, detail: 'the request timed out' },
		{ kind: 'unreachable', retryable: true, detail: 'Connection error.' },
		{ kind: 'unreachable', retryable: true, detail: 'terminated', midAnswer: true },
		{
			kind: 'cors',
			retryable: false,
			detail: 'x',
			detailSaid: corsHintSaid('ollama', 'http://localhost:4173')
		},
		{
			kind: 'invalid_output',
			retryable: true,
			detail: 'x',
			detailSaid: coded('output_cut_off', { maxTokens: 512 })
		},
		{ kind: 'aborted', retryable: false, detail: 'cancelled' }
	];

	it.each(failures.map((f) => [f.kind + (f.midAnswer ? ' (mid answer)' : ''), f] as const))(
		'%s: the case, the role and the model named, the provider quoted, the rest Chinese',
		(_, f) => {
			const said = failureSaid(f, context);
			expect(said).not.toBeNull();
			inLocale('zh-CN');
			const text = sayCore(said!);
			expect(text).toMatch(/^案例 2023-041，评审模型 judge-model（http:\/\/127\.0\.0\.1:9\/v1）：/);
			const quoted = ['Incorrect API key provided', 'no such model', 'max_tokens too large'];
			for (const q of quoted) if (f.detail === q) expect(text).toContain(`“${q}”`);
			const left = englishIn(
				text
					.replace(/“[^”]*”|（[A-Za-z .]+）/g, ' ')
					.replace(/npm run lexpilot|ollama serve|OLLAMA_ORIGINS|finish_reason/g, ' ')
			);
			expect(left, text).toEqual([]);
		}
	);

	it('a failure stopping a run: where it stopped, what is saved, all in Chinese', async () => {
		const server = await startFakeOpenAI({
			handler: () => ({ status: 500, body: { error: { message: 'GPU on fire' } } })
		});
		try {
			const client = createOpenAIClient(
				{
					evaluated: { baseURL: server.baseURL, apiKey: 'sk-run-secret-1', model: 'm' },
					user: { baseURL: server.baseURL, apiKey: 'sk-run-secret-1', model: 'm' },
					judge: { baseURL: server.baseURL, apiKey: 'sk-run-secret-1', model: 'm' }
				},
				{ retries: 0 }
			);
			const error = await client
				.complete({
					role: 'evaluated',
					task: 'lexawn',
					prompt: 'p',
					temperature: 0,
					maxTokens: 16,
					caseNumber: 'C-7'
				})
				.catch((e: unknown) => e);
			const named = naming(error, 'gen', { index: 6, case_number: 'C-7' } as Case);
			const shown = { message: (named as Error).message, said: saidOf(named) };
			inLocale('zh-CN');
			expect(coreText(shown.message, shown.said)).toBe(
				`gen 停在案例 #6（case_number C-7）：案例 C-7，被评估模型 m（${server.baseURL}）：` +
					'500 服务器内部错误（GPU on fire）— 服务商出错；请稍后继续运行。'
			);
			inLocale('en');
			expect(shown.message).toContain('gen stopped at case #6 (case_number C-7): case C-7');
		} finally {
			await server.close();
		}
	});

	it('a judge that never answers in JSON: the task, the asks and the parser’s words', async () => {
		const judge = {
			complete: async () => ({ response: 'I think 是', finishReason: 'stop' })
		} as unknown as ModelClient;
		const error = await completeJudge(
			judge,
			{
				role: 'judge',
				task: 'judge_dcg',
				prompt: 'p',
				temperature: 0,
				maxTokens: 16,
				caseNumber: 'C-\u001b9'
			},
			JudgeDcgOutput
		).catch((e: unknown) => e);
		const named = naming(error, 'dcg', { index: 2, case_number: 'C-\u001b9' } as Case);
		const shown = { message: (named as Error).message, said: saidOf(named) };
		inLocale('zh-CN');
		const zh = coreText(shown.message, shown.said);
		expect(zh).toMatch(
			/^dcg 停在案例 #2（case_number C-\\u001b9）：案例 C-\\u001b9，judge_dcg：问了 4 次，评审模型的输出仍不是约定的 JSON（.+）。原始输出保留在下方；请检查评审模型是否遵循提示词包中的 judge_dcg 提示词，或换一个评审模型。$/
		);
		inLocale('en');
		expect(shown.message).toContain(
			"judge_dcg: the judge's output was not the expected JSON after 4 asks"
		);
	});

	it('an error whose cause has no code is shown in English, whole', () => {
		const named = naming(new Error('disk on fire'), 'gen', { index: 0, case_number: 'A' } as Case);
		const shown = { message: (named as Error).message, said: saidOf(named) };
		inLocale('zh-CN');
		expect(shown.said).toBeUndefined();
		expect(coreText(shown.message, shown.said)).toBe(
			'gen stopped at case #0 (case_number A): disk on fire'
		);
	});
});

describe('resume refusals in the interface language', () => {
	it('saved records that do not fit: each one a line, its case and history said in Chinese', async () => {
		const run = { runId: 'run1', modelDir: 'gpt-x-4e02b150' };
		const records = [
			makeA1('1', 'complete'),
			makeA1('1', 'complete'),
			makeA1('9', 'complete'),
			makeA1('2', 'underspecified')
		];
		const store = MemoryStore.fromFiles([
			[stageFilePath(run, 'a1'), records.map(toJsonLine).join('')]
		]);
		const expected = new Map(
			['1', '2'].flatMap((c) =>
				(['complete', 'underspecified'] as const).map((t) => [
					recordIdentity('a1', makeA1(c, t)),
					c === '2' && t === 'underspecified' ? fakeSha('changed') : makeA1(c, t).input_sha256
				])
			)
		);
		const error = await loadCheckpoint(store, run, 'a1', expected).catch((e: unknown) => e);
		const said = saidOf(error);
		expect(said).toHaveLength(1);
		inLocale('zh-CN');
		const lines = coreText((error as Error).message, said).split('\n');
		expect(lines[0]).toBe(`${stageFilePath(run, 'a1')}：有 3 条已保存的记录与本次运行不符：`);
		expect(lines[1]).toBe(
			'  - 第 2 行（case_number 1（完整历史））：保存了两次（第一次在第 1 行）；请删除你不信任的那一份，然后继续运行。'
		);
		expect(lines[2]).toMatch(
			/^ {2}- 第 3 行（case_number 9（完整历史））：已保存，但该案例不在本次运行选定的案例之中/
		);
		expect(lines[3]).toMatch(
			/^ {2}- 第 4 行（case_number 2（信息缺失历史））：保存时的输入不同（保存的 input_sha256 为 \S+，现在为 \S+）/
		);
		expect(lines.at(-1)).toBe('没有覆盖任何内容。');
		inLocale('en');
		expect((error as Error).message).toContain(
			'line 2 (case_number 1 (complete history)): saved twice'
		);
	});

	it('a run id started with other inputs: every difference one a line, in Chinese', async () => {
		const run = { runId: 'run1', modelDir: 'gpt-x-4e02b150' };
		const saved = makeManifest(run);
		const store = new MemoryStore();
		await openRun(store, saved);
		const wanted = structuredClone(saved);
		wanted.settings.temperature = 1;
		wanted.dataset.selected_case_numbers = ['X', ...wanted.dataset.selected_case_numbers.slice(1)];
		const error = await openRun(store, wanted).catch((e: unknown) => e);
		const said = saidOf(error);
		expect(said).toHaveLength(1);
		inLocale('zh-CN');
		const text = coreText((error as Error).message, said);
		const n = saved.dataset.selected_case_numbers.length;
		expect(text).toBe(
			`runs/run1/gpt-x-4e02b150/manifest.json：运行 run1 启动时的输入与现在不同：\n` +
				`  - dataset.selected_case_numbers：保存时 ${n} 个案例，现在 ${n} 个；第一处不同在第 1 个：` +
				`保存时为 ${JSON.stringify(saved.dataset.selected_case_numbers[0])}，现在为 "X"\n` +
				`  - settings.temperature：保存时为 ${saved.settings.temperature}，现在为 1\n` +
				'一个运行 ID 保留它启动时的输入：输入有变时请使用新的运行 ID，或恢复原来的输入以继续运行。没有覆盖任何内容。'
		);
	});
});

describe('category map problems in the interface language', () => {
	it('every problem one a line, its place said in Chinese', () => {
		const map = '{"合同纠纷": ["民间借贷纠纷", ""], "侵权纠纷": ["民间借贷纠纷"]}';
		const error = (() => {
			try {
				parseCategoryMap(map);
			} catch (e) {
				return e;
			}
		})();
		inLocale('zh-CN');
		expect(coreText((error as Error).message, saidOf(error))).toBe(
			'类别映射：\n  - 类别 "合同纠纷" 的第 2 项：案由必须是非空字符串\n' +
				'  - 类别 "侵权纠纷" 的第 1 项："民间借贷纠纷" 已在类别 "合同纠纷" 中'
		);
	});
});

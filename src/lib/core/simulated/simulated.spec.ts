import { describe, expect, it } from 'vitest';
import { ModelCallError } from '../errors';
import {
	JudgeDcgOutput,
	JudgeLcaOutput,
	judgeExtractOutput,
	parseJudgeJson
} from '../model/output';
import { DEFAULT_PROMPT_PACK } from '../prompts/default-pack';
import { claimsText, fillTemplate } from '../prompts/fill';
import { runStages } from '../engine';
import { MemoryStore } from '../store/memory-store';
import { createSimulatedClient, simulateFromPrompt, simulateResponse } from './index';
import { makeDataset } from '../../../../tests/fixtures/engine/cases';

const fill = fillTemplate.bind(null, DEFAULT_PROMPT_PACK);
const histories = Array.from(
	{ length: 30 },
	(_, i) =>
		`User: 我在${2000 + i}年租了房东的房子，房东现在不退押金${i * 100}元，合同还没到期就让我搬走。`
);

describe('simulated responses', () => {
	it('are deterministic: the same prompt gives the same answer', () => {
		for (const history of histories.slice(0, 5)) {
			const prompt = fill('lexawn', { history });
			expect(simulateResponse('lexawn', prompt)).toBe(simulateResponse('lexawn', prompt));
		}
	});

	it('ask when the history is very short, and both ask and answer across longer ones', () => {
		expect(simulateResponse('lexawn', fill('lexawn', { history: 'User: 怎么办？' }))).toMatch(/？/);
		const asks = histories.map((history) =>
			/？/.test(simulateResponse('lexawn', fill('lexawn', { history })))
		);
		expect(asks).toContain(true);
		expect(asks).toContain(false);
	});

	it('label a response as the LCA judge would: a question is 澄清, an answer is 直接判断', () => {
		for (const history of histories) {
			const response = simulateResponse('lexawn', fill('lexawn', { history }));
			const parsed = parseJudgeJson(
				simulateResponse('judge_lca', fill('judge_lca', { response })),
				JudgeLcaOutput
			);
			expect(parsed).toEqual({
				ok: true,
				value: { label: /？/.test(response) ? 'clarification' : 'judgment' }
			});
		}
	});

	it.each([1, 2, 3, 6])('extract exactly one valid verdict per claim (%i claims)', (n) => {
		const claims = Array.from({ length: n }, (_, i) => `判令被告支付第${i + 1}项费用`);
		for (const response of ['支持本金。', '部分支持。', '驳回。']) {
			const out = simulateResponse(
				'judge_extract',
				fill('judge_extract', { claims: claimsText(claims), response })
			);
			expect(parseJudgeJson(out, judgeExtractOutput(n)).ok).toBe(true);
		}
	});

	it('give DCG labels that fit the contract, both values across questions', () => {
		const labels = histories.map((question) => {
			const out = simulateResponse(
				'judge_dcg',
				fill('judge_dcg', {
					question,
					focal_points: '押金是否应退还',
					key_details: '合同约定押金2000元'
				})
			);
			const parsed = parseJudgeJson(out, JudgeDcgOutput);
			if (!parsed.ok) throw new Error(parsed.error);
			return parsed.value.label;
		});
		expect(new Set(labels)).toEqual(new Set(['是', '否']));
	});

	it('answer as the client only from the key details given', () => {
		const facts = ['1. 押金为2000元，有收据', '2. 房东提前两个月通知解约'];
		for (const question of histories) {
			const reply = simulateResponse(
				'user_standard',
				fill('user_standard', { key_details: facts.join('\n'), history: 'User: 你好', question })
			);
			const usesFact = facts.some((f) => reply.includes(f.slice(3)));
			expect(usesFact || reply.includes('不太清楚')).toBe(true);
			expect(reply).not.toContain('租了房东的房子');
		}
	});

	it('recognise the task from the prompt alone, and nothing else', () => {
		const prompt = fill('force_ask', { history: histories[0] });
		expect(simulateFromPrompt(prompt)).toBe(simulateResponse('force_ask', prompt));
		expect(simulateFromPrompt('ping')).toBeNull();
	});
});

describe('createSimulatedClient', () => {
	it('runs every stage offline and marks the run as simulated', async () => {
		const store = new MemoryStore();
		const result = await runStages({
			dataset: makeDataset(3),
			stages: ['gen', 'dcg', 'ljp-direct', 'ljp-gold', 'ljp-interaction'],
			client: createSimulatedClient(),
			store,
			runId: 'demo',
			models: { evaluated: 'simulated', user: 'simulated-user', judge: 'simulated-judge' },
			endpoints: { evaluated: 'simulated', user: 'simulated', judge: 'simulated' }
		});
		expect(result.manifest.simulated).toBe(true);
		expect(result.stages.every((s) => s.generated === 3)).toBe(true);
	});

	it('stops a delayed answer when aborted', async () => {
		const client = createSimulatedClient({ latencyMs: [200, 300] });
		const controller = new AbortController();
		const pending = client.complete({
			role: 'evaluated',
			task: 'lexawn',
			prompt: fill('lexawn', { history: histories[0] }),
			temperature: 0.7,
			maxTokens: 100,
			caseNumber: 'c1',
			signal: controller.signal
		});
		controller.abort();
		const error = await pending.catch((e) => e);
		expect(error).toBeInstanceOf(ModelCallError);
		expect(error.details.kind).toBe('aborted');
	});
});

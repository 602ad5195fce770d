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
import { runStages } from '../engine/run-stages';
import { MemoryStore } from '../store/memory-store';
import { createSimulatedClient } from './simulated-client';
import { simulatedProfile } from './profiles';
import { simulateFromPrompt, simulateResponse } from './responder';
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

describe('simulated model profiles', () => {
	/** The evaluated model's answer to one history, as a run of `model` and `runId` gets it. */
	const answer = (model: string | undefined, runId: string, history: string) =>
		createSimulatedClient({ model, runId })
			.complete({
				role: 'evaluated',
				task: 'lexawn',
				prompt: fill('lexawn', { history }),
				temperature: 0.7,
				maxTokens: 100,
				caseNumber: '1'
			})
			.then((r) => r.response);
	const ask = async (model: string | undefined, runId: string, history: string) =>
		/？/.test(await answer(model, runId, history));
	const long = histories.map(
		(h) => `${h}${'我们签订了书面合同，有银行转账记录可以证明，'.repeat(8)}`
	);
	const share = async (model: string, list: string[], runId = 'run1') =>
		(await Promise.all(list.map((h) => ask(model, runId, h)))).filter(Boolean).length / list.length;

	it('leave the plain simulated model as it was, whatever the run id', async () => {
		for (const history of [...histories, ...long]) {
			const before = /？/.test(simulateResponse('lexawn', fill('lexawn', { history })));
			expect(await ask('simulated', 'run7', history)).toBe(before);
			expect(await ask(undefined, '', history)).toBe(before);
		}
	});

	it('differ clearly between models: strong asks on short histories and answers long ones', async () => {
		expect(await share('simulated-strong', histories)).toBeGreaterThanOrEqual(0.8);
		expect(await share('simulated-strong', long)).toBeLessThanOrEqual(0.2);
		expect(await share('simulated-asks-always', [...histories, ...long])).toBe(1);
		const weak = await share('simulated-weak', [...histories, ...long]);
		expect(weak).toBeGreaterThan(0.1);
		expect(weak).toBeLessThan(0.5);
	});

	it('are deterministic per model, run and case, and differ a little between runs', async () => {
		const answers = (runId: string) =>
			Promise.all(
				[...histories, ...long].map((history) => answer('simulated-strong', runId, history))
			);
		const [a, again, b] = await Promise.all([answers('run1'), answers('run1'), answers('run2')]);
		expect(again).toEqual(a);
		const differ = a.filter((text, i) => text !== b[i]).length;
		expect(differ).toBeGreaterThan(0);
		expect(await share('simulated-strong', histories, 'run2')).toBeGreaterThanOrEqual(0.8);
	});

	it('the DCG judge rates pointed questions useful more often than vague ones', () => {
		const rate = (model: 'simulated-strong' | 'simulated-weak') => {
			const client = { profile: simulatedProfile(model)!, salt: model };
			let yes = 0;
			for (const history of histories) {
				const question = simulateResponse(
					'force_ask',
					fill('force_ask', { history }),
					undefined,
					client
				);
				const out = simulateResponse(
					'judge_dcg',
					fill('judge_dcg', { question, focal_points: '借款', key_details: '借条' })
				);
				if (out.includes('是')) yes++;
			}
			return yes / histories.length;
		};
		expect(rate('simulated-strong')).toBeGreaterThan(rate('simulated-weak') + 0.25);
	});
});

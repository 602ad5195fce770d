/**
 * Pins `input_sha256` of one record of every stage file for a fixed input. A resumed run
 * compares these hashes with the ones saved by earlier versions of the workbench, so any change
 * to what they cover (or how) would turn every saved run stale: such a change must be deliberate
 * and must fail here first. Everything the hashes depend on is fixed in this file (case, pack,
 * models, settings, model answers), so edits elsewhere (default prompts, simulated provider,
 * fixtures) do not move them.
 */
import { describe, expect, it } from 'vitest';
import type { Case } from '../dataset/types';
import { sha256Hex } from '../hash';
import type { ChatRequest, ModelClient } from '../model/types';
import type { PromptPack } from '../prompts/pack';
import { STAGE_FILE_NAMES, type StageFile } from '../records';
import { MemoryStore } from '../store/memory-store';
import { runStages } from './run-stages';
import { INPUT_HASH_SCHEME } from './seal';
import type { StageName } from './types';

const CASE: Case = {
	index: 0,
	case_number: 'PIN-001',
	case_number_value: 'PIN-001',
	cause_of_action: '民间借贷纠纷',
	plaintiff_type: '自然人',
	focal_points: ['借款事实是否成立'],
	key_details: ['2022年3月银行转账出借5万元', '借条约定年利率10%'],
	claims: [
		{ claim: '判令被告偿还借款本金5万元', verdict: '支持' },
		{ claim: '判令被告支付利息', verdict: '部分支持' }
	],
	complete: [
		{ role: 'user', content: '朋友2022年3月向我借了5万元，有借条，约定年利率10%，一直不还。' }
	],
	underspecified: [{ role: 'user', content: '朋友借了我的钱一直不还，我该怎么办？' }]
};

const PACK: PromptPack = {
	name: 'pin',
	version: '1',
	templates: {
		lexawn: '咨询：<对话历史>{history}</对话历史>',
		force_ask: '提问：<对话历史>{history}</对话历史>',
		force_judge: '判断：<对话历史>{history}</对话历史>',
		user_standard: '事实：{key_details}\n<对话历史>{history}</对话历史>\n问题：{question}',
		judge_lca: '分类：{response}',
		judge_dcg: '焦点：{focal_points}\n事实：{key_details}\n问题：{question}',
		judge_extract: '请求：{claims}\n回答：{response}'
	}
};

const REPLY = '有借条，约定年利率10%。';

/** Answers from the prompt alone, so every run gives the same records whatever the order. */
const client: ModelClient = {
	simulated: false,
	async complete(req: ChatRequest) {
		const answers: Record<ChatRequest['task'], string> = {
			// Asks first; answers once the client has replied, so the interaction has two rounds.
			lexawn: req.prompt.includes(REPLY) ? '支持偿还本金。' : '请问有没有借条？',
			force_ask: '请问借款金额是多少？',
			force_judge: '支持本金，部分支持利息。',
			user_standard: REPLY,
			judge_lca: JSON.stringify({ label: req.prompt.includes('请问') ? '澄清' : '直接判断' }),
			judge_dcg: JSON.stringify({ label: '是' }),
			judge_extract: JSON.stringify({ verdicts: ['支持', '部分支持'] })
		};
		return { response: answers[req.task], reasoning: null, finishReason: 'stop', usage: null };
	}
};

const STAGES: StageName[] = ['gen', 'dcg', 'ljp-direct', 'ljp-gold', 'ljp-interaction'];

/** First record of each file (the complete history's, in a1 and LCA_results). */
const PINNED: Record<StageFile, string> = {
	a1: 'e5dec1821d2e6e4923fddeb14e36c324e448c30ac68103c0be0da6329921f24a',
	interaction: '817b19dafddece4bfb6d08bfa28a987e36e609fda684bffc4b46117c0f048c65',
	force_ask: 'ee0686293ff41f53f2721919c26938f039e52e9ce2b9b0a76797c0757c8124c3',
	a1_direct: 'e032a31e78685da4adcfc58069b340bcfcb763d6889912e537bc659ab8705a94',
	a1_force_judge: '40782c3f09b8c168933712f0a3fc2e5a9b84d1b40db9cf3c5b065506a0d4a7cb',
	LCA_results: '1b5574000bb1e6e95855b7a940821f9de06281e60994b8d6634ce38df20f58e1',
	DCG_results: 'efd11c2a8c57c18c36c0df04ac5e3c82285d52314a60a4dcb8e8c7b774f9a84d',
	LJP_direct: '122f91e4f8e72181d5c9e4b554d0caf92b92dc8ae02417cef93d48aad1734fd0',
	LJP_gold: '4dff6c58935d5794a27251f24fe6867201c9441d2d07a479c383dac6dd4cd796',
	LJP_interaction: 'd887fbe0effafffb4c3ce0c91a42b84d54f3b60a41fab6d8de4cc444f1480f01'
};

/** SHA-256 of every stage file's path and text, in path order. */
const FILES = 'f1477d858b698362f02578e4997680be848d47cad188ffeae58f67074819c926';

describe('input_sha256', () => {
	it('stays what earlier versions saved, for one record of every stage file', async () => {
		const store = new MemoryStore();
		const { run } = await runStages({
			dataset: {
				cases: [CASE],
				sha256: 'b'.repeat(64),
				historyFields: { complete: 'complete', underspecified: 'underspecified' },
				categories: { 民间借贷纠纷: '合同纠纷' }
			},
			stages: STAGES,
			client,
			store,
			runId: 'pin',
			models: { evaluated: 'eval-m', user: 'user-m', judge: 'judge-m' },
			endpoints: { evaluated: 'http://e/v1', user: 'http://u/v1', judge: 'http://j/v1' },
			settings: {
				temperature: 0.7,
				judge_temperature: 0.1,
				max_tokens: 1024,
				timeout_s: 60,
				retries: 1
			},
			pack: PACK
		});
		const saved: Partial<Record<StageFile, string>> = {};
		for (const file of STAGE_FILE_NAMES) {
			saved[file] = (await store.readRecords(run, file))[0]?.input_sha256;
		}
		expect(saved).toEqual(PINNED);
		// The fixture does reach a second interaction round, so the pin covers a continued history.
		const [interaction] = await store.readRecords(run, 'interaction');
		expect(interaction.rounds).toHaveLength(2);
		// And the records themselves, byte for byte: every stage file of the run.
		const files = [...store.toFiles()].filter(([path]) => !path.startsWith('runs/')).sort();
		expect(await sha256Hex(files.map(([path, text]) => `${path}\n${text}`).join(''))).toBe(FILES);
	});

	it('is named by INPUT_HASH_SCHEME, which changes with the pins (resume seals made under another are void)', async () => {
		const pins = (await sha256Hex(JSON.stringify(PINNED))).slice(0, 16);
		expect(INPUT_HASH_SCHEME).toBe(`input-sha256:${pins}`);
	});
});

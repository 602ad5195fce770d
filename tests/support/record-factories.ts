/**
 * Small factories for valid records and manifests, for tests. Texts are
 * Chinese and histories nested, so a store that mangles either fails its tests.
 */
import type { CallLogEntry } from '../../src/lib/core/calls/schema';
import type { History } from '../../src/lib/core/dataset/types';
import type { RunKey } from '../../src/lib/core/layout';
import {
	type CaseNumber,
	DEFAULT_SETTINGS,
	MANIFEST_SCHEMA_VERSION,
	type A1Record,
	type DcgResultRecord,
	type InteractionRecord,
	type LcaResultRecord,
	type Manifest
} from '../../src/lib/core/records';

/** A well-formed, deterministic stand-in for an `input_sha256` (not a real hash). */
export function fakeSha(seed: string | number): string {
	let h = 0x811c9dc5;
	for (const ch of String(seed)) h = Math.imul(h ^ ch.codePointAt(0)!, 0x01000193) >>> 0;
	return h.toString(16).padStart(8, '0').repeat(8);
}

export function sampleHistory(caseNumber: CaseNumber): History {
	return [
		{ role: 'user', content: `案件${caseNumber}：我借给朋友五万元，他一直不还。` },
		{ role: 'assistant', content: '请问有借条或转账记录吗？"引号"与\\反斜杠\n换行也要保留。' },
		{ role: 'user', content: '有微信转账记录，但没有借条。' }
	];
}

export function makeA1(
	caseNumber: CaseNumber,
	historyType: A1Record['history_type'] = 'complete',
	overrides: Partial<A1Record> = {}
): A1Record {
	return {
		case_number: caseNumber,
		history_type: historyType,
		history: sampleHistory(caseNumber),
		response: `根据《民法典》第六百七十五条，借款人应当按照约定的期限返还借款。（${historyType}）`,
		reasoning: null,
		input_sha256: fakeSha(`a1/${caseNumber}/${historyType}`),
		...overrides
	};
}

export function makeLca(
	caseNumber: CaseNumber,
	historyType: LcaResultRecord['history_type'] = 'underspecified',
	overrides: Partial<LcaResultRecord> = {}
): LcaResultRecord {
	return {
		case_number: caseNumber,
		cause_of_action: '民间借贷纠纷',
		history_type: historyType,
		response: '请问借款时是否约定了利息？',
		label: 'clarification',
		input_sha256: fakeSha(`lca/${caseNumber}/${historyType}`),
		...overrides
	};
}

export function makeInteraction(
	caseNumber: CaseNumber,
	overrides: Partial<InteractionRecord> = {}
): InteractionRecord {
	const initial = sampleHistory(caseNumber);
	return {
		case_number: caseNumber,
		initial_history: initial,
		rounds: [
			{
				round: 1,
				assistant: '请问是否约定了还款期限？',
				label: 'clarification',
				user_reply: '约定一年内还清。'
			},
			{ round: 2, assistant: '您的诉讼请求应当得到支持。', label: 'judgment', user_reply: null }
		],
		stop_reason: 'judgment',
		final_response: '您的诉讼请求应当得到支持。',
		history: [
			...initial,
			{ role: 'assistant', content: '请问是否约定了还款期限？' },
			{ role: 'user', content: '约定一年内还清。' },
			{ role: 'assistant', content: '您的诉讼请求应当得到支持。' }
		],
		input_sha256: fakeSha(`interaction/${caseNumber}`),
		...overrides
	};
}

export function makeDcg(
	caseNumber: CaseNumber,
	overrides: Partial<DcgResultRecord> = {}
): DcgResultRecord {
	return {
		case_number: caseNumber,
		cause_of_action: '民间借贷纠纷',
		round_labels: ['否', '是'],
		success: true,
		input_sha256: fakeSha(`dcg/${caseNumber}`),
		...overrides
	};
}

export function makeManifest(run: RunKey, overrides: Partial<Manifest> = {}): Manifest {
	return {
		schema_version: MANIFEST_SCHEMA_VERSION,
		tool: { name: 'lexpilot-workbench', version: '0.1.0' },
		run_id: run.runId,
		model_dir: run.modelDir,
		created_at: '2025-01-01T00:00:00.000Z',
		dataset: {
			sha256: fakeSha('dataset'),
			n_cases: 3,
			selected_case_numbers: ['1', '2', '3'],
			history_fields: {
				complete: 'complete_consultation',
				underspecified: 'underspecified_consultation'
			}
		},
		code_sha256: fakeSha('code'),
		prompts_sha256: fakeSha('prompts'),
		models: { evaluated: 'gpt-x', user: 'DeepSeek-V4.1-Flash', judge: 'DeepSeek-R1' },
		endpoints: {
			evaluated: 'https://api.openai.com/v1',
			user: 'https://api.deepseek.com/v1',
			judge: 'https://api.deepseek.com/v1'
		},
		settings: { ...DEFAULT_SETTINGS },
		categories: { 民间借贷纠纷: '合同纠纷', 离婚纠纷: '婚姻家庭纠纷' },
		simulated: false,
		...overrides
	};
}

/** One call-log entry: an evaluated-model call of gen that answered at once (1 s, 100 + 10 tokens). */
export function makeCallEntry(overrides: Partial<CallLogEntry> = {}): CallLogEntry {
	return {
		session: 's1',
		seq: 0,
		started_at: '2026-01-01T00:00:00.000Z',
		role: 'evaluated',
		stage: 'gen',
		task: 'lexawn',
		case_number: 'c1',
		model: 'm',
		prompt: '提示',
		response: '答复',
		reasoning: null,
		finish_reason: 'stop',
		usage: { prompt: 100, completion: 10 },
		latency_ms: 1000,
		retries: 0,
		attempts: [{ attempt: 1, outcome: 'ok', latency_ms: 1000 }],
		error: null,
		...overrides
	};
}

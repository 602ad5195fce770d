/** PROTOCOL.md §2 isolation: every prompt sent to every role, inspected. */
import { beforeAll, describe, expect, it } from 'vitest';
import { keyDetailsText, renderHistory } from '../../../src/lib/core/dataset/render';
import type { Case } from '../../../src/lib/core/dataset/types';
import { claimsText } from '../../../src/lib/core/prompts/fill';
import { MemoryStore } from '../../../src/lib/core/store/memory-store';
import { hiddenMarkers, makeDataset } from '../../fixtures/engine/cases';
import { records, run } from './harness';
import { ScriptedClient } from './scripted-client';

const dataset = makeDataset(3);
const caseOf = (caseNumber: string): Case =>
	dataset.cases.find((c) => c.case_number === caseNumber)!;

// Every evaluated response is unique and asks, so interactions use the whole budget and each
// LCA prompt can be traced to the one response it classifies. User replies carry no hidden
// marker, so any marker found in an evaluated prompt can only be a leak.
let counter = 0;
const client = new ScriptedClient((req) => {
	if (req.task === 'lexawn' || req.task === 'force_ask')
		return `问题${++counter}：请问借款时有没有借条？`;
	if (req.task === 'force_judge')
		return `判断${++counter}：根据现有事实，借款关系成立，请求大概率得到支持。`;
	if (req.task === 'user_standard') return '我记得是去年的事，别的不太清楚。';
	return undefined;
});
const store = new MemoryStore();

beforeAll(async () => {
	await run(client, store, { dataset });
});

describe('isolation of roles (PROTOCOL.md §2)', () => {
	it('sends the evaluated model only its history and task prompt, never hidden data', () => {
		const evaluated = client.requests.filter((r) => r.role === 'evaluated');
		expect(evaluated.length).toBeGreaterThan(0);
		for (const req of evaluated) {
			expect(['lexawn', 'force_ask', 'force_judge']).toContain(req.task);
			expect(Object.keys(req.values)).toEqual(['history']);
			const kase = caseOf(req.caseNumber);
			for (const marker of hiddenMarkers(kase)) expect(req.prompt).not.toContain(marker);
			const own = [renderHistory(kase.complete), renderHistory(kase.underspecified)];
			expect(own.some((h) => req.values.history!.startsWith(h))).toBe(true);
		}
	});

	it('gives key_details only to the user model and the DCG judge, and every entry to both', () => {
		for (const req of client.requests) {
			const kase = caseOf(req.caseNumber);
			const sees = req.prompt.includes(`KD${kase.index}`);
			const allowed = req.role === 'user' || req.task === 'judge_dcg';
			expect(sees, `${req.role}/${req.task}`).toBe(allowed);
			if (allowed) expect(req.prompt).toContain(keyDetailsText(kase.key_details));
		}
	});

	it('gives the extraction judge the claims in order and the scored response, never gold verdicts', async () => {
		const extract = client.of('judge_extract');
		expect(extract).toHaveLength(dataset.cases.length * 3);
		const scored = [
			...(await records(store, 'LJP_direct')),
			...(await records(store, 'LJP_gold')),
			...(await records(store, 'LJP_interaction'))
		];
		for (const req of extract) {
			const kase = caseOf(req.caseNumber);
			expect(Object.keys(req.values).sort()).toEqual(['claims', 'response']);
			expect(req.values.claims).toBe(claimsText(kase.claims.map((c) => c.claim)));
			expect(
				scored.some((r) => r.case_number === kase.case_number && r.response === req.values.response)
			).toBe(true);
		}
	});

	it('gives the LCA judge exactly one new response and no earlier turn', () => {
		const lca = client.of('judge_lca');
		// a1 (2 per case) + rounds 2 and 3 of each interaction.
		expect(lca).toHaveLength(dataset.cases.length * 4);
		const responses = client.of('lexawn').map((r) => r.answer);
		expect(responses).toHaveLength(lca.length);
		for (const req of lca) {
			expect(responses).toContain(req.values.response);
			const contained = [...req.prompt.matchAll(/问题\d+/g)].map((m) => m[0]);
			expect(contained).toHaveLength(1);
			expect(req.values.response).toMatch(/^问题\d+：/);
			const kase = caseOf(req.caseNumber);
			expect(req.prompt).not.toContain(kase.underspecified[0].content);
			expect(req.prompt).not.toContain('我记得是去年的事');
		}
	});

	it('sends each prompt as one filled template, with the history inside <对话历史>', () => {
		for (const req of client.requests.filter((r) => r.values.history !== undefined)) {
			expect(req.prompt).toContain(`<对话历史>${req.values.history}</对话历史>`);
		}
	});
});

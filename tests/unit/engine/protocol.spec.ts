/** PROTOCOL.md §4: the interaction budget, DCG's two rounds, Direct/Gold independence, claim order. */
import { describe, expect, it } from 'vitest';
import { renderHistory } from '../../../src/lib/core/dataset/render';
import { claimsText } from '../../../src/lib/core/prompts/fill';
import { MemoryStore } from '../../../src/lib/core/store/memory-store';
import { makeDataset } from '../../fixtures/engine/cases';
import { records, run } from './harness';
import { ScriptedClient, type SeenRequest } from './scripted-client';

const ASK = '请问借款时有没有借条？';
const ANSWER = '结论：借款关系成立，本金请求大概率得到支持。';

/** True for a lexawn call continuing the underspecified history of its case. */
function onUnderspecified(req: SeenRequest): boolean {
	return req.values.history!.includes('一直不还，我该怎么办');
}

describe('interaction (PROTOCOL.md §4.1c)', () => {
	const table = [
		{ asks: 0, labels: ['judgment'], stop: 'judgment', userReplies: 0 },
		{ asks: 1, labels: ['clarification', 'judgment'], stop: 'judgment', userReplies: 1 },
		{
			asks: 2,
			labels: ['clarification', 'clarification', 'judgment'],
			stop: 'judgment',
			userReplies: 2
		},
		{
			asks: 3,
			labels: ['clarification', 'clarification', 'clarification', 'forced'],
			stop: 'budget',
			userReplies: 3
		},
		{
			asks: 99,
			labels: ['clarification', 'clarification', 'clarification', 'forced'],
			stop: 'budget',
			userReplies: 3
		}
	];

	it.each(table)(
		'$asks question(s) before answering → rounds $labels, stop $stop',
		async ({ asks, labels, stop, userReplies }) => {
			const client = new ScriptedClient((req, seen) => {
				if (req.task !== 'lexawn') return undefined;
				if (!onUnderspecified(req)) return ANSWER;
				const before = seen.filter(
					(r) => r.task === 'lexawn' && r.caseNumber === req.caseNumber && onUnderspecified(r)
				).length;
				return before <= asks ? `${ASK}（第${before}次）` : ANSWER;
			});
			const store = new MemoryStore();
			const dataset = makeDataset(2);
			await run(client, store, { dataset, stages: ['gen'] });
			const interactions = await records(store, 'interaction');
			const a1 = await records(store, 'a1');
			expect(interactions).toHaveLength(2);
			for (const [i, rec] of interactions.entries()) {
				const kase = dataset.cases[i];
				expect(rec.case_number).toBe(kase.case_number);
				expect(rec.rounds.map((r) => r.label)).toEqual(labels);
				expect(rec.stop_reason).toBe(stop);
				// Round 1 is the a1 response itself, never a new call.
				const a1Under = a1.find(
					(r) => r.case_number === kase.case_number && r.history_type === 'underspecified'
				)!;
				expect(rec.rounds[0].assistant).toBe(a1Under.response);
				expect(rec.final_response).toBe(rec.rounds.at(-1)!.assistant);
				expect(rec.rounds.at(-1)!.user_reply).toBeNull();
				expect(rec.rounds.filter((r) => r.user_reply !== null)).toHaveLength(userReplies);
				// The full history: the original turns, then every new turn in order, ending with the final.
				const turns = rec.rounds.flatMap((r) => [
					{ role: 'assistant', content: r.assistant },
					...(r.user_reply === null ? [] : [{ role: 'user', content: r.user_reply }])
				]);
				expect(rec.initial_history).toEqual(kase.underspecified);
				expect(rec.history).toEqual([...kase.underspecified, ...turns]);
				expect(rec.rounds.length).toBeLessThanOrEqual(4);
				expect(client.of('user_standard', kase.case_number)).toHaveLength(userReplies);
				expect(client.of('force_judge', kase.case_number)).toHaveLength(stop === 'budget' ? 1 : 0);
			}
		}
	);

	it('forces the final prediction on the history that ends with the third reply', async () => {
		const client = new ScriptedClient((req) => (req.task === 'lexawn' ? ASK : undefined));
		const store = new MemoryStore();
		await run(client, store, { dataset: makeDataset(1), stages: ['gen'] });
		const [rec] = await records(store, 'interaction');
		const [forced] = client.of('force_judge');
		expect(forced.values.history).toBe(renderHistory(rec.history.slice(0, -1)));
		expect(rec.history.at(-2)).toEqual({ role: 'user', content: rec.rounds[2].user_reply });
		// The 4 new assistant responses: the a1 response, two lexawn follow-ups, one forced prediction.
		expect(rec.history.length - rec.initial_history.length).toBe(7);
	});
});

describe('dcg (PROTOCOL.md §4.2)', () => {
	const table = [
		{ labels: ['否', '是'], success: true },
		{ labels: ['是', '否'], success: true },
		{ labels: ['否', '否'], success: false }
	] as const;

	it.each(table)('round labels $labels → success $success', async ({ labels, success }) => {
		let asked = 0;
		const client = new ScriptedClient((req) => {
			if (req.task === 'force_ask') return `Q${++asked}：借款是否有书面借条？`;
			if (req.task === 'judge_dcg') {
				const round = Number(/^Q(\d+)/.exec(req.values.question!)![1]) % 2 === 1 ? 0 : 1;
				return JSON.stringify({ label: labels[round] });
			}
			return undefined;
		});
		const store = new MemoryStore();
		const dataset = makeDataset(1);
		await run(client, store, { dataset, stages: ['dcg'] });
		const [asks] = await records(store, 'force_ask');
		const [result] = await records(store, 'DCG_results');
		expect(result.round_labels).toEqual(labels);
		expect(result.success).toBe(success);
		// Round 2 sees the original history plus question 1 and the user's reply.
		const kase = dataset.cases[0];
		const [first, second] = client.of('force_ask');
		expect(first.values.history).toBe(renderHistory(kase.underspecified));
		expect(second.values.history).toBe(
			renderHistory([
				...kase.underspecified,
				{ role: 'assistant', content: asks.rounds[0].question },
				{ role: 'user', content: asks.rounds[0].user_reply }
			])
		);
		const judged = client.of('judge_dcg').map((r) => r.values.question);
		expect(judged.sort()).toEqual([asks.rounds[0].question, asks.rounds[1].question].sort());
		// DCG never consults gen: no LexAwN call was made.
		expect(client.of('lexawn')).toHaveLength(0);
	});
});

describe('ljp-direct and ljp-gold (PROTOCOL.md §4.3–4.4)', () => {
	it('make dedicated force_judge responses and never reuse an a1 response', async () => {
		let n = 0;
		const client = new ScriptedClient((req) => {
			if (req.task === 'lexawn') return `A1-${++n}：${ANSWER}`;
			if (req.task === 'force_judge') return `FJ-${++n}：${ANSWER}`;
			return undefined;
		});
		const store = new MemoryStore();
		const dataset = makeDataset(3);
		await run(client, store, { dataset, stages: ['gen', 'ljp-direct', 'ljp-gold'] });
		const forced = client.of('force_judge');
		expect(forced).toHaveLength(6);
		for (const [file, ljp, type] of [
			['a1_direct', 'LJP_direct', 'underspecified'],
			['a1_force_judge', 'LJP_gold', 'complete']
		] as const) {
			const responses = await records(store, file);
			const results = await records(store, ljp);
			for (const [i, kase] of dataset.cases.entries()) {
				expect(responses[i].history).toEqual(
					type === 'complete' ? kase.complete : kase.underspecified
				);
				expect(responses[i].response).toMatch(/^FJ-/);
				expect(results[i].response).toBe(responses[i].response);
				expect(forced.map((r) => r.values.history)).toContain(renderHistory(responses[i].history));
			}
		}
	});

	it('runs Direct and Gold without gen', async () => {
		const client = new ScriptedClient();
		const store = new MemoryStore();
		await run(client, store, { stages: ['ljp-direct', 'ljp-gold'] });
		expect(client.of('lexawn')).toHaveLength(0);
		expect(await records(store, 'LJP_gold')).toHaveLength(4);
	});
});

describe('claim order', () => {
	it('keeps file order for integer-like claims in the prompt and the records', async () => {
		const claims = [
			{ claim: '10', verdict: '驳回' },
			{ claim: '2', verdict: '支持' },
			{ claim: '1', verdict: '部分支持' },
			{ claim: '判令被告承担诉讼费', verdict: '支持' }
		] as const;
		const dataset = makeDataset(1, (k) => ({ ...k, claims: claims.map((c) => ({ ...c })) }));
		const predicted = ['支持', '驳回', '驳回', '部分支持'];
		const client = new ScriptedClient((req) =>
			req.task === 'judge_extract' ? JSON.stringify({ verdicts: predicted }) : undefined
		);
		const store = new MemoryStore();
		await run(client, store, { dataset, stages: ['ljp-direct'] });
		const [req] = client.of('judge_extract');
		expect(req.values.claims).toBe(claimsText(['10', '2', '1', '判令被告承担诉讼费']));
		const [rec] = await records(store, 'LJP_direct');
		expect(rec.claims).toEqual(['10', '2', '1', '判令被告承担诉讼费']);
		expect(rec.gold).toEqual(['驳回', '支持', '部分支持', '支持']);
		expect(rec.predicted).toEqual(predicted);
	});
});

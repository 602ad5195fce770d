import { describe, expect, it } from 'vitest';
import { makeDataset } from '../../../../tests/fixtures/engine/cases';
import type { ChatRequest, ModelClient } from '../model/types';
import { createSimulatedClient } from '../simulated';
import { MemoryStore } from '../store/memory-store';
import { chainAhead } from './priority';
import { runAll } from './run-all';

const MODELS = { evaluated: 'e', user: 'u', judge: 'j' };
const ONE = 'http://one.test/v1';

describe('the longest chain ahead', () => {
	it.each([
		['gen', 'lexawn', undefined, 11],
		['gen', 'judge_lca', undefined, 10],
		['gen', 'user_standard', 1, 9],
		['gen', 'lexawn', 2, 8],
		['gen', 'judge_lca', 3, 4],
		['gen', 'user_standard', 3, 3],
		['gen', 'force_judge', 4, 2],
		['dcg', 'force_ask', 1, 4],
		['dcg', 'user_standard', 1, 3],
		['dcg', 'force_ask', 2, 2],
		['dcg', 'judge_dcg', 1, 1],
		['ljp-direct', 'force_judge', undefined, 2],
		['ljp-gold', 'judge_extract', undefined, 1],
		['ljp-interaction', 'judge_extract', undefined, 1]
	] as const)('%s %s (round %s): %i calls', (stage, task, round, calls) => {
		expect(chainAhead(stage, task, round === undefined ? {} : { round })).toBe(calls);
	});
});

describe('runAll serves the longest chain first', () => {
	it('starts every case’s gen before the leaf work of earlier cases, and saves the same records', async () => {
		const inner = createSimulatedClient();
		const order: ChatRequest[] = [];
		const client: ModelClient = {
			simulated: true,
			complete: async (request) => {
				order.push(request);
				return inner.complete(request);
			}
		};
		const store = new MemoryStore();
		const options = {
			dataset: makeDataset(4),
			models: MODELS,
			endpoints: { evaluated: ONE, user: ONE, judge: ONE },
			stages: ['gen', 'ljp-direct'] as const,
			concurrency: 1
		};
		await runAll({ ...options, client, store, runId: 'r1' });
		const answers = order.flatMap((r, i) => (r.task === 'lexawn' ? [i] : []));
		const firstLeaf = order.findIndex((r) => r.stage === 'ljp-direct');
		// The a1 answers of all four cases (both histories: 8) come before any ljp-direct call,
		// though case 1's ljp-direct could have started before case 2's gen.
		expect(new Set(order.slice(0, answers[7] + 1).map((r) => r.caseNumber)).size).toBe(4);
		expect(firstLeaf).toBeGreaterThan(answers[7]);
		// The order of calls changes nothing saved: files in dataset order, as one stage at a time.
		const apart = new MemoryStore();
		for (const stage of options.stages) {
			await runAll({ ...options, stages: [stage], client: inner, store: apart, runId: 'r1' });
		}
		const files = (s: MemoryStore) =>
			[...s.toFiles()].filter(([p]) => !/manifest\.json$|calls\.jsonl$|seal/.test(p));
		expect(files(store)).toEqual(files(apart));
	});
});

/**
 * Each round saves how many rounds the longest chain of dependent calls still needs from it on
 * (`chain_ahead`, what `batch status` prints): the protocol's longest chain at round 1 (a1, its
 * label, three rounds of reply, answer and label, the forced answer, its LJP: 11), and never
 * fewer than the rounds the run then takes.
 */
import { describe, expect, it } from 'vitest';
import { runBatch } from '../../../src/lib/core/batch/rounds';
import type { BatchState } from '../../../src/lib/core/batch/store';
import { MemoryStore } from '../../../src/lib/core/store/memory-store';
import { simulatedScript } from '../../engine/simulated-script';
import { byTask } from '../../fake-openai/by-task';
import { makeDataset } from '../../fixtures/engine/cases';
import { MODELS } from '../engine/harness';
import { sendTo, serveBatch } from './batch-compare';

describe('a round saves the rounds its longest chain still needs', { timeout: 60_000 }, () => {
	it('11 at round 1, and at every round at least the rounds the run still took', async () => {
		const server = await serveBatch(byTask(simulatedScript));
		const sender = sendTo(server);
		let last: BatchState | null = null;
		const out = await runBatch(
			{
				dataset: makeDataset(5),
				runId: 'r1',
				models: MODELS,
				store: new MemoryStore(),
				endpoints: { evaluated: server.baseURL, user: server.baseURL, judge: server.baseURL }
			},
			sender,
			{ onRound: (state) => void (last = state) }
		);
		if (!out.done) throw new Error('not done');
		const rounds = (last as BatchState | null)!.rounds;
		expect(rounds).toHaveLength(out.rounds);
		expect(rounds[0].chain_ahead).toBe(11);
		for (const [i, r] of rounds.entries()) {
			expect(r.chain_ahead).toBeGreaterThanOrEqual(rounds.length - i);
			if (i > 0) expect(r.chain_ahead).toBeLessThan(rounds[i - 1].chain_ahead!);
		}
	});
});

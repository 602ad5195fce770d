import { describe, expect, it } from 'vitest';
import type { PendingRequest } from '../batch/client';
import type { BatchRound } from '../batch/store';
import { downloadSender, type BatchInputs } from './batch-senders';
import { batchView, readBatchChoice } from './batch-view';
import { readPlan } from './run-plans';

const request = (i: number, model = 'm1'): PendingRequest => ({
	customId: `lp1.${i}`,
	role: 'evaluated',
	baseURL: 'http://e.test/v1',
	body: {
		model,
		messages: [{ role: 'user', content: `问题${i}` }],
		n: 1,
		temperature: 0,
		max_tokens: 9
	}
});

describe('the browser files sender', () => {
	it('saves the round files without their texts, and offers the texts when the round waits', async () => {
		const inputs: BatchInputs = new Map();
		const sender = downloadSender(inputs);
		const pending = [request(1), request(2, 'm2'), request(3)];
		const files = await sender.send(pending, 4);
		expect(files.map((f) => [f.model, f.lines])).toEqual([
			['m1', 2],
			['m2', 1]
		]);
		expect(inputs.size).toBe(0);
		const round: BatchRound = {
			round: 4,
			mode: 'files',
			status: 'written',
			sent_at: '2026-12-05T00:00:00.000Z',
			requests: 3,
			files
		};
		// A reloaded page rebuilds them from the round's pending requests; nothing is answered yet.
		expect(await sender.collect(round, pending)).toBeNull();
		const texts = [...inputs.values()];
		expect(texts.map((t) => [t.model, t.lines])).toEqual([
			['m1', 2],
			['m2', 1]
		]);
		const first = JSON.parse(texts[0].text.split('\n')[0]) as Record<string, unknown>;
		expect(first).toMatchObject({
			custom_id: 'lp1.1',
			method: 'POST',
			url: '/v1/chat/completions'
		});
		expect(
			[...inputs.keys()].every((name) => name.startsWith('round-4-') && !name.includes('/'))
		).toBe(true);
		expect(batchView({ version: 1, rounds: [round] })?.round.round).toBe(4);
	});
});

describe('batch mode in a remembered plan', () => {
	const plan = {
		runId: 'r',
		modelDir: 'm-12345678',
		stages: ['gen'],
		concurrency: 4,
		datasetName: 'd.json',
		status: 'paused',
		error: null,
		updatedAt: '2026-12-05T00:00:00.000Z'
	};
	it('keeps a batch mode it knows and drops anything else', () => {
		expect(readPlan({ ...plan, batch: 'files' })?.batch).toBe('files');
		expect(readPlan({ ...plan, batch: 'cluster' })).not.toHaveProperty('batch');
		expect(readBatchChoice('provider')).toBe('provider');
		expect(readBatchChoice('x')).toBe('interactive');
	});
});

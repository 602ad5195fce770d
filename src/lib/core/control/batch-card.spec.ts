import { describe, expect, it } from 'vitest';
import type { BatchRound, BatchState, SavedBatchAnswer } from '../batch/store';
import { BatchCardFeed } from './batch-card';
import type { BatchCard } from './batch-view';

const round = (n: number, status: BatchRound['status'], requests: number): BatchRound => ({
	round: n,
	mode: 'provider',
	status,
	sent_at: '2026-12-05T00:00:00.000Z',
	requests,
	files: []
});
const state = (...rounds: BatchRound[]): BatchState => ({ version: 1, rounds });
/** An answer of case `kase` in `round` (the case is the 4th part of a custom_id). */
const answer = (kase: string, round: number, i = 0): SavedBatchAnswer => ({
	customId: `lp1.run.gn.${kase}.la.p.${i}.1`,
	round,
	status: 200,
	body: {}
});
const settled = () => new Promise((r) => setTimeout(r, 0));

describe('the Progress card of a batch run', () => {
	it('counts answered requests, and the longest chain again only when a round is answered', async () => {
		const cards: BatchCard[] = [];
		let reads = 0;
		let saved: SavedBatchAnswer[] = [];
		const feed = new BatchCardFeed(
			'provider',
			async () => (reads++, saved),
			(c) => cards.push(c)
		);
		feed.show(null);
		expect(cards.at(-1)).toEqual({ mode: 'provider', view: null, longestChain: 0 });
		await settled();
		expect(reads).toBe(1);

		saved = [answer('a', 1), answer('b', 1, 1), answer('c', 1, 2)];
		feed.show(state(round(1, 'answered', 3), round(2, 'submitted', 2)));
		await settled();
		expect(cards.at(-1)?.view?.answered).toBe(3);
		expect(cards.at(-1)?.longestChain).toBe(1);
		// Polls change nothing answered: no new read.
		feed.show(state(round(1, 'answered', 3), round(2, 'submitted', 2)));
		await settled();
		expect(reads).toBe(2);

		saved = [...saved, answer('a', 2), answer('b', 2, 1)];
		feed.show(state(round(1, 'answered', 3), round(2, 'answered', 2)));
		await settled();
		expect(reads).toBe(3);
		expect(cards.at(-1)).toMatchObject({ view: { answered: 5, rounds: 2 }, longestChain: 2 });
	});

	it('keeps the waiting round’s input files when the chain comes back after them', async () => {
		const cards: BatchCard[] = [];
		let release = () => {};
		const feed = new BatchCardFeed(
			'files',
			() => new Promise<SavedBatchAnswer[]>((r) => (release = () => r([answer('a', 1)]))),
			(c) => cards.push(c)
		);
		const waiting = state(round(1, 'answered', 1), { ...round(2, 'written', 1), mode: 'files' });
		feed.show(waiting);
		feed.show(waiting, [{ name: 'round-2-x-0.jsonl', model: 'm', lines: 1 }]);
		release();
		await settled();
		expect(cards.at(-1)?.longestChain).toBe(1);
		expect(cards.at(-1)?.view?.inputs.map((i) => i.name)).toEqual(['round-2-x-0.jsonl']);
	});
});

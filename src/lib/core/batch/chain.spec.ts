import { describe, expect, it } from 'vitest';
import { stageChain } from '../engine/priority';
import { longestChain, roundsLeft, roundsToExpect } from './chain';
import type { BatchRound } from './store';

const round = (r: number, status: BatchRound['status'], chain?: number, files = 1): BatchRound => ({
	round: r,
	mode: 'provider',
	status,
	sent_at: '2026-12-07T00:00:00.000Z',
	requests: 10,
	...(chain === undefined ? {} : { chain_ahead: chain }),
	files: Array.from({ length: files }, (_, i) => ({
		name: `f${i}`,
		endpoint: 'e',
		model: 'm',
		lines: 10,
		bytes: 1
	}))
});

describe('the rounds a batch run expects', () => {
	it('before any round: the longest chain its stages can make (11 with gen, as BATCH.md counts)', () => {
		expect(stageChain('gen')).toBe(11);
		expect(stageChain('dcg')).toBe(4);
		expect(stageChain('ljp-direct')).toBe(2);
		expect(stageChain('ljp-gold')).toBe(2);
		expect(roundsToExpect(null, ['gen', 'dcg', 'ljp-direct', 'ljp-gold', 'ljp-interaction'])).toBe(
			11
		);
		expect(roundsToExpect(null, ['dcg', 'ljp-direct'])).toBe(4);
		expect(roundsToExpect(undefined, ['ljp-gold'])).toBe(2);
	});

	it('a round out counts itself among the rounds left', () => {
		expect(roundsLeft(round(3, 'submitted', 9))).toBe(9);
		expect(roundsToExpect(round(3, 'submitted', 9), ['gen'])).toBe(11);
		expect(roundsToExpect(round(1, 'written', 11), ['gen'])).toBe(11);
	});

	it('an answered round is behind: what is left comes after it', () => {
		expect(roundsLeft(round(3, 'answered', 9))).toBe(8);
		expect(roundsToExpect(round(3, 'answered', 9), ['gen'])).toBe(11);
		// A retry on the longest chain made the run longer than 11.
		expect(roundsToExpect(round(11, 'answered', 2), ['gen'])).toBe(12);
		expect(roundsToExpect(round(11, 'answered', 1), ['gen'])).toBe(11);
	});

	it("a cancelled round's requests are asked again in the next round (a new number once it was sent)", () => {
		expect(roundsLeft(round(4, 'cancelled', 8))).toBe(8);
		expect(roundsToExpect(round(4, 'cancelled', 8), ['gen'])).toBe(12);
		expect(roundsToExpect(round(4, 'cancelled', 8, 0), ['gen'])).toBe(11);
	});

	it('a round saved before chain_ahead was kept does not say', () => {
		expect(roundsLeft(round(2, 'answered'))).toBeNull();
		expect(roundsToExpect(round(2, 'answered'), ['gen'])).toBeNull();
	});

	it('the longest chain as measured counts the rounds that carried a request of a case', () => {
		const a = (customId: string, r: number) => ({ customId, round: r }) as never;
		expect(longestChain([a('x.y.z.1.a', 1), a('x.y.z.1.b', 2), a('x.y.z.2.a', 1)])).toBe(2);
	});
});

import { describe, expect, it } from 'vitest';
import { costOf, spendOf, type RoleTokens } from './cost';

const t = (prompt: number, completion: number) => ({ prompt, completion });
const run = (evaluated: string, tokens: [number, number][]): RoleTokens => ({
	models: { evaluated, user: 'u', judge: 'j' },
	tokens: { evaluated: t(...tokens[0]), user: t(...tokens[1]), judge: t(...tokens[2]) }
});

describe('cost', () => {
	it('prices per million prompt and completion tokens', () => {
		expect(costOf(t(1_000_000, 500_000), { input: 2.5, output: 10 })).toBeCloseTo(7.5, 10);
		expect(costOf(t(0, 0), { input: 2.5, output: 10 })).toBe(0);
	});

	it('bills each role at the model that played it and names models without a price', () => {
		const runs = [
			run('a', [
				[1000, 100],
				[200, 20],
				[3000, 300]
			]),
			run('b', [
				[2000, 0],
				[0, 0],
				[1000, 100]
			])
		];
		const spend = spendOf(runs, {
			models: { a: { input: 1, output: 2 }, j: { input: 10, output: 20 } }
		});
		expect(spend.tokens).toEqual({ prompt: 7200, completion: 520 });
		// a: 1000·1 + 100·2; j: (3000+1000)·10 + (300+100)·20 — per million.
		expect(spend.cost).toBeCloseTo((1200 + 48000) / 1e6, 12);
		// u used tokens in run a; b's user none, so only u and b are missing.
		expect(spend.unpriced).toEqual(['b', 'u']);
	});
});

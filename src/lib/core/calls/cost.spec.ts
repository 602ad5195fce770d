import { describe, expect, it } from 'vitest';
import { costOf } from './cost';

const t = (prompt: number, completion: number) => ({ prompt, completion });

describe('cost', () => {
	it('prices per million prompt and completion tokens', () => {
		expect(costOf(t(1_000_000, 500_000), { input: 2.5, output: 10 })).toBeCloseTo(7.5, 10);
		expect(costOf(t(0, 0), { input: 2.5, output: 10 })).toBe(0);
	});
});

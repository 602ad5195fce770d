import { describe, expect, it } from 'vitest';
import { LATENCY_MS, longestChain, mostInFlight } from './run-ideal';

const rounds = (...labels: string[]) => ({ rounds: labels.map((label) => ({ label })) });

describe('longestChain', () => {
	it("is dcg's four calls when every interaction is answered at once", () => {
		// a1 → LCA → LJP = 3 < 4.
		expect(longestChain([rounds('judgment')])).toBe(4);
	});

	it('adds a reply, a response and its label per clarification in rounds 1–2, then the LJP', () => {
		// a1, LCA, (user, lexawn, LCA), LJP = 6.
		expect(longestChain([rounds('clarification', 'judgment'), rounds('judgment')])).toBe(6);
	});

	it('ends a full budget with the reply and the forced response', () => {
		// a1, LCA, 3 + 3 + (user, force_judge), LJP = 11.
		const full = rounds('clarification', 'clarification', 'clarification', 'forced');
		expect(longestChain([full])).toBe(11);
	});
});

describe('mostInFlight', () => {
	it('counts the calls whose latency overlaps, a call ending as the next arrives not counted', () => {
		expect(mostInFlight([])).toBe(0);
		expect(mostInFlight([0, LATENCY_MS, 2 * LATENCY_MS])).toBe(1);
		expect(mostInFlight([50, 0, 10, 99, 150, 160])).toBe(4);
	});
});

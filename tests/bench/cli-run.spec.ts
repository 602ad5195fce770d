import { describe, expect, it } from 'vitest';
import { longestChain } from './run-ideal';

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

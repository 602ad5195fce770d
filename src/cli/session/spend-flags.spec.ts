import { describe, expect, it } from 'vitest';
import type { SessionSnapshot } from '../../lib/core/session';
import { spendLine } from './spend-flags';

const snapshot = (spent: number, cap: number | null) =>
	({ spend: { spent, cap, currency: 'USD' } }) as unknown as SessionSnapshot;

describe('the spend line', () => {
	it('says the spend and the cap with four decimals', () => {
		expect(spendLine(snapshot(0.86071, 0.8))).toBe('spent 0.8607 of the cap 0.8000 USD');
		expect(spendLine(snapshot(0, null))).toBe('spent 0.0000 USD');
	});

	it('never says Infinity or NaN', () => {
		expect(spendLine(snapshot(Infinity, Infinity))).toBe('spent — of the cap — USD');
		expect(spendLine(snapshot(Number.NaN, null))).toBe('spent — USD');
	});
});

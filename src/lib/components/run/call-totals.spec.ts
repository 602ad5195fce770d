import { describe, expect, it } from 'vitest';
import type { RunSnapshot } from '$lib/core/engine/types';
import { callSum, roleCallRows } from './call-totals';

const tokens = (prompt: number, completion: number) => ({ prompt, completion });
const gen = {
	calls: { byRole: { evaluated: 4, user: 0, judge: 0 } },
	tokens: { evaluated: tokens(400, 40), user: tokens(0, 0), judge: tokens(0, 0) }
} as unknown as RunSnapshot;

describe('roleCallRows', () => {
	it('is this start’s counts for a run that had none before', () => {
		const rows = roleCallRows(gen, null);
		expect(rows[0]).toEqual({
			role: 'evaluated',
			run: { calls: 4, prompt: 400, completion: 40 },
			sinceStart: null
		});
		expect(callSum(rows)).toEqual({ run: 4, sinceStart: null });
	});

	it('after a resume, adds the earlier calls and keeps this start’s part beside them', () => {
		const none = { calls: 0, prompt: 0, completion: 0 };
		const earlier = {
			byRole: { evaluated: { calls: 10, prompt: 1000, completion: 100 }, user: none, judge: none }
		};
		const rows = roleCallRows(gen, earlier);
		expect(rows[0]).toEqual({
			role: 'evaluated',
			run: { calls: 14, prompt: 1400, completion: 140 },
			sinceStart: { calls: 4, prompt: 400, completion: 40 }
		});
		expect(callSum(rows)).toEqual({ run: 14, sinceStart: 4 });
	});
});

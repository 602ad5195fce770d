import { describe, expect, it } from 'vitest';
import type { CallLogEntry } from '$lib/core/calls/schema';
import type { RunKey } from '$lib/core/layout';
import { MAX_RUNS_READ, measuredTokens } from './earlier-tokens';

const call = (model: string, prompt: number, completion: number, answered = true) =>
	({
		model,
		response: answered ? 'ok' : null,
		usage: { prompt, completion }
	}) as CallLogEntry;

function store(logs: Record<string, CallLogEntry[] | Error>) {
	return {
		appendCall: async () => {},
		readCalls: async (run: RunKey) => {
			const log = logs[run.runId] ?? [];
			if (log instanceof Error) throw log;
			return log;
		}
	};
}
const key = (runId: string): RunKey => ({ runId, modelDir: 'm-00000000' });

describe('tokens per call from earlier runs', () => {
	it('averages answered calls with usage per model, across runs; a failed read costs its run only', async () => {
		const measured = await measuredTokens(
			store({
				a: [call('gpt-x', 100, 10), call('judge', 50, 5), call('gpt-x', 300, 30)],
				b: [call('gpt-x', 200, 20), call('gpt-x', 9999, 9999, false)],
				c: new Error('unreadable'),
				d: [{ ...call('__proto__', 8, 2) }, { ...call('u', 1, 1), usage: null }]
			}),
			['a', 'b', 'c', 'd', 'e'].map(key)
		);
		expect(measured.runs).toBe(3);
		expect(measured.perCall['gpt-x']).toEqual({ prompt: 200, completion: 20 });
		expect(measured.perCall.judge).toEqual({ prompt: 50, completion: 5 });
		expect(Object.hasOwn(measured.perCall, '__proto__')).toBe(true);
		expect(Object.hasOwn(measured.perCall, 'u')).toBe(false);
		expect(({} as Record<string, unknown>).prompt).toBeUndefined();
	});

	it('reads at most MAX_RUNS_READ runs, and nothing from a store without a call log', async () => {
		const read: string[] = [];
		const s = store({});
		const spy = { ...s, readCalls: async (run: RunKey) => (read.push(run.runId), []) };
		const runs = Array.from({ length: MAX_RUNS_READ + 3 }, (_, i) => key(`run${i}`));
		expect(await measuredTokens(spy, runs)).toEqual({ perCall: {}, runs: 0 });
		expect(read).toHaveLength(MAX_RUNS_READ);
		expect(await measuredTokens({}, runs)).toEqual({ perCall: {}, runs: 0 });
	});
});

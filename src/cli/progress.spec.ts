import { describe, expect, it } from 'vitest';
import { stageProgress } from '../../tests/fixtures/engine/progress';
import type { RunSnapshot } from '../lib/core/engine/types';
import {
	createProgressPrinter,
	createRunProgressPrinter,
	formatDuration,
	formatProgress,
	formatRunProgress,
	formatTokens
} from './progress';

describe('formatProgress', () => {
	it('shows bar, counts, rate over generated cases, ETA, retries and failures', () => {
		const line = formatProgress(
			stageProgress({
				done: 50,
				resumed: 10,
				inFlight: 4,
				elapsedMs: 20_000,
				retries: 2,
				failures: 0
			}),
			true
		);
		// 40 generated in 20 s = 2 cases/s; 50 left → 25 s.
		expect(line).toBe(
			'gen              [##########----------]  50/100 cases  (10 resumed)  4 in flight  2.0 cases/s  ETA 25s  retries 2  failures 0'
		);
	});

	it('leaves out rate and ETA before the first generated case', () => {
		expect(formatProgress(stageProgress({ done: 10, resumed: 10, elapsedMs: 500 }))).not.toMatch(
			/cases\/s|ETA/
		);
	});

	it.each([
		[42, '42s'],
		[125, '2m05s'],
		[7322, '2h02m']
	])('formats %i s as %s', (s, text) => {
		expect(formatDuration(s)).toBe(text);
	});

	it('sums tokens per role that made calls', () => {
		const p = stageProgress({
			calls: { evaluated: 3, user: 0, judge: 1 },
			tokens: {
				evaluated: { prompt: 12_345, completion: 800 },
				user: { prompt: 0, completion: 0 },
				judge: { prompt: 50, completion: 5 }
			}
		});
		expect(formatTokens(p)).toBe(
			'evaluated 3 calls, 12.3k in / 800 out; judge 1 calls, 50 in / 5 out'
		);
	});
});

describe('createProgressPrinter', () => {
	it('prints plain lines every tenth of the stage when stderr is not a terminal', () => {
		let out = '';
		const { onProgress } = createProgressPrinter({ stderr: (t) => (out += t), isTTY: false });
		for (let done = 0; done <= 40; done++) onProgress(stageProgress({ total: 40, done }));
		onProgress(stageProgress({ total: 40, done: 40, status: 'done' }));
		const lines = out.trimEnd().split('\n');
		expect(lines.filter((l) => l.startsWith('gen')).map((l) => /(\d+)\/40/.exec(l)![1])).toEqual([
			'0',
			'4',
			'8',
			'12',
			'16',
			'20',
			'24',
			'28',
			'32',
			'36',
			'40'
		]);
		expect(out).not.toContain('\r');
		expect(lines.at(-1)).toBe('  no model calls');
	});

	it('redraws one line on a terminal and ends it before anything else is printed', () => {
		let out = '';
		let t = 0;
		const printer = createProgressPrinter(
			{ stderr: (s) => (out += s), isTTY: true },
			() => (t += 1000)
		);
		printer.onProgress(stageProgress({ done: 1 }));
		printer.onProgress(stageProgress({ done: 2 }));
		expect(out).not.toContain('\n');
		expect(out.split('\r\x1b[2K')).toHaveLength(3);
		printer.end();
		expect(out.endsWith('\n')).toBe(true);
	});
});

function snapshot(overrides: Partial<RunSnapshot> = {}): RunSnapshot {
	const role = { evaluated: 0, user: 0, judge: 0 };
	const tokens = { prompt: 0, completion: 0 };
	return {
		status: 'running',
		stages: [
			{
				stage: 'gen',
				total: 10,
				done: 4,
				resumed: 1,
				inFlight: 2,
				calls: 30,
				byRole: { ...role, evaluated: 30 },
				tokens: { evaluated: { ...tokens }, user: { ...tokens }, judge: { ...tokens } },
				retries: 1,
				failures: 0,
				doneAt: null
			}
		],
		cases: { total: 10, done: 3 },
		calls: { done: 30, estimatedTotal: 120, perSecond: 6, byRole: { ...role, evaluated: 30 } },
		tokens: { evaluated: { ...tokens }, user: { ...tokens }, judge: { ...tokens } },
		etaMs: 15_000,
		retries: 1,
		failures: 0,
		concurrency: {
			max: 8,
			auto: false,
			endpoints: [{ endpoint: 'http://a/v1', limit: 8, active: 8, waiting: 3 }]
		},
		startedAt: 0,
		elapsedMs: 5000,
		...overrides
	};
}

describe('formatRunProgress', () => {
	it('shows cases, calls against the estimate, rate, ETA and the current limit', () => {
		expect(formatRunProgress(snapshot(), true)).toBe(
			'run  [#####---------------]  3/10 cases  30/~120 calls  6.0 calls/s  ETA 15s  concurrency 8  retries 1  failures 0'
		);
	});

	it('shows auto mode and per-endpoint limits that differ', () => {
		const line = formatRunProgress(
			snapshot({
				concurrency: {
					max: 64,
					auto: true,
					endpoints: [
						{ endpoint: 'a', limit: 16, active: 0, waiting: 0 },
						{ endpoint: 'b', limit: 4, active: 0, waiting: 0 }
					]
				}
			})
		);
		expect(line).toContain('concurrency 16/4 (auto, up to 64)');
	});

	it('ends with the total and per-stage counts', () => {
		const out: string[] = [];
		const printer = createRunProgressPrinter({ stderr: (t) => out.push(t), isTTY: false });
		printer.onSnapshot(snapshot());
		printer.onSnapshot(snapshot({ cases: { total: 10, done: 10 } }));
		printer.onSnapshot(snapshot({ status: 'done', cases: { total: 10, done: 10 }, etaMs: null }));
		const text = out.join('');
		expect(text.match(/^run /gm)).toHaveLength(2);
		expect(text).toMatch(/30\/30 calls .*done in 5s/);
		expect(text).toMatch(/ {2}gen {13}4\/10 cases \(1 resumed\), 30 calls/);
		expect(text).toMatch(/evaluated 30 calls/);
	});
});

import { describe, expect, it } from 'vitest';
import { stageProgress } from '../../tests/fixtures/engine/progress';
import { createProgressPrinter, formatDuration, formatProgress, formatTokens } from './progress';

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

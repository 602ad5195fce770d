import { describe, expect, it } from 'vitest';
import type { StageProgress } from '$lib/core/engine/types';
import { stageProgress } from '../../../../tests/fixtures/engine/progress';
import { overwriteGetLocale } from '$lib/paraglide/runtime';
import { formatCount, formatDuration, stageTiming } from './progress-format';

/** Started at 1 000 s on the page's clock. */
const progress = (p: Partial<StageProgress>) => stageProgress({ startedAt: 1_000_000, ...p });

describe('stageTiming', () => {
	it('projects time left from the cases generated, not the resumed ones', () => {
		// 40 resumed at once, then 20 generated in 60 s: 3 s per case, 40 left → 120 s.
		const t = stageTiming(progress({ done: 60, resumed: 40, elapsedMs: 50_000 }), 1_060_000);
		expect(t).toEqual({ elapsedMs: 60_000, etaMs: 120_000 });
	});

	it.each([
		['nothing generated yet', progress({ done: 10, resumed: 10 }), null],
		['a finished stage', progress({ status: 'done', done: 100, elapsedMs: 5000 }), 0],
		['a failed stage', progress({ status: 'failed', done: 30, elapsedMs: 5000 }), null]
	])('has no projection for %s', (_name, p, eta) => {
		expect(stageTiming(p, 2_000_000).etaMs).toBe(eta);
	});

	it('keeps the engine’s elapsed time once the stage has ended', () => {
		expect(
			stageTiming(progress({ status: 'done', done: 100, elapsedMs: 5000 }), 9e9).elapsedMs
		).toBe(5000);
	});
});

describe('formatting', () => {
	it.each([
		[0, '0 s'],
		[44_600, '45 s'],
		[185_000, '3 min 05 s'],
		[7_440_000, '2 h 04 min']
	])('formatDuration(%d) = %s', (ms, text) => expect(formatDuration(ms)).toBe(text));

	it.each([
		[950, '950', '950'],
		[1234, '1.23K', '1234'],
		[7090, '7.09K', '7090'],
		[12_345, '12.3K', '1.23万'],
		[4_560_000, '4.56M', '456万']
	])('formatCount(%d) = %s, in Chinese %s', (n, en, zh) => {
		expect(formatCount(n, 'en')).toBe(en);
		expect(formatCount(n, 'zh-CN')).toBe(zh);
	});

	it('writes counts in the page language by default', () => {
		overwriteGetLocale(() => 'zh-CN');
		try {
			expect(formatCount(7090)).toBe('7090');
		} finally {
			overwriteGetLocale(() => 'en');
		}
	});
});

describe('stageTiming while paused', () => {
	const running = progress({ done: 30, resumed: 10, elapsedMs: 20_000 });

	it('stands still while the run is paused, and goes on from there after resuming', () => {
		// Running from 1 000 s, paused at 1 060 s.
		const paused = [{ from: 1_060_000, to: null }];
		expect(stageTiming(running, 1_060_000, paused).elapsedMs).toBe(60_000);
		expect(stageTiming(running, 1_090_000, paused).elapsedMs).toBe(60_000);
		// Resumed at 1 100 s after 40 s paused: 5 s later the stage has run 65 s.
		const resumed = [{ from: 1_060_000, to: 1_100_000 }];
		expect(stageTiming(running, 1_105_000, resumed).elapsedMs).toBe(65_000);
	});

	it('paces time left on the time worked, not the time paused', () => {
		// 20 generated in 60 s worked: 3 s per case, 70 left → 210 s, however long the pause.
		const t = stageTiming(running, 1_500_000, [{ from: 1_060_000, to: 1_500_000 }]);
		expect(t).toEqual({ elapsedMs: 60_000, etaMs: 210_000 });
	});

	it('leaves out a pause inside a stage that has ended, and pauses before it started', () => {
		const ended = progress({ status: 'done', done: 100, elapsedMs: 90_000 });
		const pauses = [
			{ from: 900_000, to: 950_000 },
			{ from: 1_030_000, to: 1_060_000 }
		];
		expect(stageTiming(ended, 9e9, pauses).elapsedMs).toBe(60_000);
	});
});

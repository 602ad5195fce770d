/**
 * What the statistics worker's client says when a request fails: a refusal of the core keeps its
 * coded pieces across the worker (so a Chinese page says it in Chinese), and the worker's own
 * failures are worded in the interface language.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { saidOf, UsageError } from '$lib/core/errors';
import type { LoadedRun } from '$lib/core/results';
import { baseLocale, overwriteGetLocale } from '$lib/paraglide/runtime';
import { coreText } from '$lib/view/core-text';
import { StatsClient } from './stats-client';

afterEach(() => {
	vi.unstubAllGlobals();
	overwriteGetLocale(() => baseLocale);
});

const loaded = (sha256: string) =>
	({ manifest: { dataset: { sha256 } }, table: { case_numbers: ['1'] } }) as unknown as LoadedRun;

/** A worker that never answers, and fails to load when `fail` is called. */
function stubWorker() {
	const made: { onerror: ((e: { message: string }) => void) | null }[] = [];
	vi.stubGlobal(
		'Worker',
		class {
			onmessage = null;
			onerror: ((e: { message: string }) => void) | null = null;
			constructor() {
				made.push(this);
			}
			postMessage() {}
			terminate() {}
		}
	);
	return { fail: (message: string) => made[0].onerror?.({ message }) };
}

describe('StatsClient', () => {
	it('keeps the coded pieces of a refused comparison', async () => {
		const error = await new StatsClient()
			.compare(loaded('a'.repeat(64)), loaded('b'.repeat(64)))
			.catch((e: unknown) => e);
		expect(error).toBeInstanceOf(UsageError);
		const message = (error as Error).message;
		expect(message).toMatch(/^These two runs cannot be compared: they were made on different/);
		overwriteGetLocale(() => 'zh-CN');
		expect(coreText(message, saidOf(error))).toMatch(
			/^这两次运行无法比较：它们基于不同的数据集（sha256 a{12}… 与 b{12}…）.*请选择案例选择相同/
		);
	});

	it('words a worker that cannot start, or is stopped, in the interface language', async () => {
		overwriteGetLocale(() => 'zh-CN');
		const worker = stubWorker();
		const client = new StatsClient();
		const pending = client.compare(loaded('a'), loaded('a'));
		worker.fail('');
		await expect(pending).rejects.toThrow('统计工作线程出错：它无法启动');

		const again = client.compare(loaded('a'), loaded('a'));
		client.terminate();
		await expect(again).rejects.toThrow('统计工作线程已停止。');

		overwriteGetLocale(() => baseLocale);
		const third = new StatsClient();
		const failing = stubWorker();
		const last = third.intervals([]);
		failing.fail('SyntaxError: bad script');
		await expect(last).rejects.toThrow('The statistics worker failed: SyntaxError: bad script');
	});
});

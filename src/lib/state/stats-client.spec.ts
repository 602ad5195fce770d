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

/** What the Results view is told of no runs: no interval, no leaderboard. */
const NOTHING = { intervals: {}, leaderboard: null };

/**
 * A stand-in worker: it answers the calls `answer` lets through, and dies when `fail` is called
 * once it holds `posts` calls in all (calls reach it a macrotask or two after they are made).
 */
function stubWorker(answer: (kind: string) => unknown | undefined = () => undefined) {
	let posted = 0;
	const made: {
		onerror: ((e: { message: string }) => void) | null;
		onmessage: ((e: { data: unknown }) => void) | null;
	}[] = [];
	vi.stubGlobal(
		'Worker',
		class {
			onmessage: ((e: { data: unknown }) => void) | null = null;
			onerror: ((e: { message: string }) => void) | null = null;
			constructor() {
				made.push(this);
			}
			postMessage(message: { rpc: string; id: number; kind: string }) {
				posted++;
				const result = answer(message.kind);
				if (result !== undefined) {
					setTimeout(() => this.onmessage?.({ data: { rpc: 'result', id: message.id, result } }));
				}
			}
			terminate() {}
		}
	);
	const fail = async (message: string, posts: number) => {
		await vi.waitFor(() => expect(posted).toBe(posts));
		made.at(-1)?.onerror?.({ message });
	};
	return { fail, made };
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

	it('answers in this thread when the worker cannot start', async () => {
		const worker = stubWorker();
		const client = new StatsClient();
		const pending = client.results([]);
		await worker.fail('', 1);
		await expect(pending).resolves.toEqual(NOTHING);
		// The page stays on its own thread: no second worker is made.
		await expect(client.results([])).resolves.toEqual(NOTHING);
		expect(worker.made).toHaveLength(1);
	});

	it('words a worker that dies after it ran, or is stopped, in the interface language', async () => {
		overwriteGetLocale(() => 'zh-CN');
		const worker = stubWorker((kind) => (kind === 'results' ? NOTHING : undefined));
		const client = new StatsClient();
		await expect(client.results([])).resolves.toEqual(NOTHING);
		const pending = client.compare(loaded('a'), loaded('a'));
		await worker.fail('', 2);
		await expect(pending).rejects.toThrow('统计工作线程意外停止。');

		const again = client.compare(loaded('a'), loaded('a'));
		await vi.waitFor(() => expect(worker.made).toHaveLength(2));
		client.terminate();
		await expect(again).rejects.toThrow('统计工作线程已停止。');

		overwriteGetLocale(() => baseLocale);
		await expect(client.results([])).resolves.toEqual(NOTHING);
		const last = client.compare(loaded('a'), loaded('a'));
		await worker.fail('SyntaxError: bad script', 5);
		await expect(last).rejects.toThrow('The statistics worker failed: SyntaxError: bad script');
	});
});

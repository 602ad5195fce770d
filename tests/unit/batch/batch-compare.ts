/**
 * What a batch-mode run and the interactive run that got the same answers must share: the stage
 * files and manifest (apart from times and `mode`), and the call log apart from timing and
 * sessions; and each request sent once. Used by the batch specs, in memory and on disk (CLI).
 */
import { afterEach, expect } from 'vitest';
import type { RoundSender } from '../../../src/lib/core/batch/rounds';
import type { MemoryStore } from '../../../src/lib/core/store/memory-store';
import { startFakeOpenAI, type FakeOpenAI, type Handler } from '../../fake-openai/server';

const servers: FakeOpenAI[] = [];
afterEach(async () => {
	await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** A fake provider with a Batch API answering through `handler`; closed after each test. */
export async function serveBatch(handler: Handler): Promise<FakeOpenAI> {
	const server = await startFakeOpenAI({ handler, batch: { delayMs: 5 } });
	servers.push(server);
	return server;
}

/** Every request of a round sent to the fake server's chat endpoint, one by one; `sizes` gets each round's count. */
export const sendTo = (server: FakeOpenAI, sizes: number[] = []): RoundSender => ({
	mode: 'provider',
	send: async (requests, round) => {
		sizes.push(requests.length);
		return [{ name: `r${round}`, endpoint: server.baseURL, model: 'm', lines: 1, bytes: 1 }];
	},
	collect: async (_round, requests) =>
		Promise.all(
			requests.map(async (r) => {
				const res = await fetch(`${server.baseURL}/chat/completions`, {
					method: 'POST',
					headers: { 'content-type': 'application/json' },
					body: JSON.stringify(r.body)
				});
				return { customId: r.customId, status: res.status, body: await res.json() };
			})
		)
});

/** A manifest less its times and `mode`. */
export const manifestLessTimes = (text: string): string =>
	text.replace(/"(created_at|at)": "[^"]+"/g, '').replace(/,\s*"mode": "batch"/, '');

/** Stage files as written; the manifest without its times and `mode`; no call log, no batch/. */
export function comparableRecords(store: MemoryStore): Map<string, string> {
	const out = new Map<string, string>();
	for (const [path, text] of store.toFiles()) {
		if (path.endsWith('calls.jsonl') || path.includes('/batch/')) continue;
		out.set(path, path.endsWith('manifest.json') ? manifestLessTimes(text) : text);
	}
	return out;
}

/** What tells one start or moment from another, not what was asked and answered. */
const TIMING = ['session', 'seq', 'started_at', 'latency_ms', 'delay_ms'];

/** A call log's lines less timing and sessions, in a stable order. */
export function callLinesLessTiming(text: string): string[] {
	return text
		.split('\n')
		.filter(Boolean)
		.map((line) => {
			const entry = JSON.parse(line);
			for (const key of TIMING) delete entry[key];
			for (const step of entry.attempts) for (const key of TIMING) delete step[key];
			return JSON.stringify(entry);
		})
		.sort();
}

/** The store's call log less timing and sessions, in a stable order. */
export function callsLessTiming(store: MemoryStore): string[] {
	const text = [...store.toFiles()].find(([p]) => p.endsWith('calls.jsonl'))?.[1] ?? '';
	return callLinesLessTiming(text);
}

/** Every request the fake provider got in its batches is another, and there were `asked`. */
export function expectEachSentOnce(server: FakeOpenAI, asked: number): void {
	const ids = server.batches.lines.map((l) => l.customId);
	expect(new Set(ids).size).toBe(ids.length);
	expect(ids.length).toBe(asked);
}

/** The part of a saved round state (`batch/state.json`) the CLI specs wait on. */
export type StateLike = {
	rounds: {
		round: number;
		status: string;
		files: { batch_id?: string; file_id?: string; sha256?: string }[];
	}[];
};

/** Where the CLI specs kill a provider-mode run (SIGKILL) before starting it again. */
export const KILL_POINTS: [string, (state: StateLike) => boolean][] = [
	[
		'while round 2 is submitted',
		(s) =>
			s.rounds.some(
				(r) => r.round === 2 && r.status === 'submitted' && r.files.some((f) => f.batch_id)
			)
	],
	['between rounds 2 and 3', (s) => s.rounds.some((r) => r.round === 2 && r.status === 'answered')]
];

/**
 * Batch mode kept in the store: a process stopped while a round is out, or between rounds,
 * starts again without sending any request twice and writes the same records; failed and
 * expired requests are asked again in a later round; files mode's outputs come back through
 * `importBatchOutputs`, which refuses a torn, a foreign or a duplicated file and saves nothing.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { filesSender } from '../../../src/lib/core/batch/files-sender';
import { importBatchOutputs, outputText } from '../../../src/lib/core/batch/import';
import { providerSender } from '../../../src/lib/core/batch/provider';
import { runBatch, type RoundSender } from '../../../src/lib/core/batch/rounds';
import { modelDirName } from '../../../src/lib/core/layout';
import { runAll } from '../../../src/lib/core/engine/run-all';
import { createOpenAIClient } from '../../../src/lib/core/model/openai-client';
import { MemoryStore } from '../../../src/lib/core/store/memory-store';
import { simulatedScript } from '../../engine/simulated-script';
import { byTask } from '../../fake-openai/by-task';
import { startFakeOpenAI, type FakeOpenAI, type Handler } from '../../fake-openai/server';
import type { FakeBatchOptions } from '../../fake-openai/batches';
import { makeDataset } from '../../fixtures/engine/cases';
import { MODELS } from '../engine/harness';
import { callsLessTiming, comparableRecords, expectEachSentOnce } from './batch-compare';
import { answerRound, memoryFiles } from './round-files';

const dataset = makeDataset(4);
const common = { dataset, runId: 'r1', models: MODELS };
const servers: FakeOpenAI[] = [];
afterEach(async () => {
	await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(handler: Handler, batch: FakeBatchOptions = { delayMs: 5 }) {
	const server = await startFakeOpenAI({ handler, batch });
	servers.push(server);
	return server;
}
/** The endpoints the manifests name (the calls go to the fake servers). */
const NODE = 'http://gpu-node:8000/v1';
const endpointsOf = (baseURL: string) => ({ evaluated: baseURL, user: baseURL, judge: baseURL });
const roles = (baseURL: string) => ({
	evaluated: { baseURL, apiKey: 'sk-batch-0123456789', model: MODELS.evaluated },
	user: { baseURL, apiKey: 'sk-batch-0123456789', model: MODELS.user },
	judge: { baseURL, apiKey: 'sk-batch-0123456789', model: MODELS.judge }
});

/** Requests the last interactive run made. */
let asked = 0;

async function interactive(handler: Handler): Promise<MemoryStore> {
	const live = await serve(handler);
	const store = new MemoryStore();
	await runAll({
		...common,
		client: createOpenAIClient(roles(live.baseURL)),
		store,
		endpoints: endpointsOf(NODE)
	});
	asked = live.chatRequests.length;
	return store;
}

const run = async () => ({ runId: 'r1', modelDir: await modelDirName(MODELS.evaluated) });

/**
 * A sender that stops the process (throws) at `when` of round `at`, else forwards; `made`: after
 * the round's last batch is made, before its id is saved.
 */
function crashing(inner: RoundSender, at: number, when: 'send' | 'made' | 'collect'): RoundSender {
	return {
		...inner,
		send: async (requests, round, signal, onFiles) => {
			if (when === 'send' && round === at) throw new Error('killed');
			if (when !== 'made' || round !== at) return inner.send(requests, round, signal, onFiles);
			return inner.send(requests, round, signal, async (files) => {
				if (files.every((f) => f.batch_id)) throw new Error('killed');
				await onFiles?.(files);
			});
		},
		collect: async (round, pending, signal, onPoll) => {
			if (when === 'collect' && round.round === at) throw new Error('killed');
			return inner.collect(round, pending, signal, onPoll);
		}
	};
}

describe('batch mode resumed from the store', () => {
	it.each(['collect', 'send', 'made'] as const)(
		'stopped at %s of round 2, started again: no request twice, same records',
		async (when) => {
			const handler = byTask(simulatedScript);
			const expected = await interactive(handler);
			const provider = await serve(handler);
			const store = new MemoryStore();
			const options = { ...common, store, endpoints: endpointsOf(NODE) };
			const fix = async () =>
				providerSender({ run: await run(), endpoints: roles(provider.baseURL), pollMs: 5 });
			await expect(runBatch(options, crashing(await fix(), 2, when))).rejects.toThrow('killed');
			const state = await store.readBatchState(await run());
			expect(state?.rounds.at(-1)?.status).toBe('submitted');
			const out = await runBatch(options, await fix());
			expect(out.done).toBe(true);
			expect(comparableRecords(store)).toEqual(comparableRecords(expected));
			// Each call logged once, by the pass that first used its answer, across the restart.
			expect(callsLessTiming(store)).toEqual(callsLessTiming(expected));
			expectEachSentOnce(provider, asked);
			const final = await store.readBatchState(await run());
			expect(final?.rounds.every((r) => r.status === 'answered')).toBe(true);
			if (out.done) expect(out.longestChain).toBe(out.rounds);
		}
	);

	it('asks failed and expired requests again in the next round, within --retries', async () => {
		const seen = new Set<string>();
		const clean = byTask(simulatedScript);
		// The first time a prompt is asked it fails with a 500; the next time it is answered.
		const flaky: Handler = (request) => {
			if (!seen.has(request.prompt) && seen.size % 3 === 0) {
				seen.add(request.prompt);
				return { status: 500, body: { error: { message: 'boom' } } };
			}
			seen.add(request.prompt);
			return clean(request);
		};
		const expected = await interactive(clean);
		const provider = await serve(flaky, { delayMs: 5, expire: (i) => i === 1 });
		const store = new MemoryStore();
		const out = await runBatch(
			{ ...common, store, endpoints: endpointsOf(NODE) },
			providerSender({ run: await run(), endpoints: roles(provider.baseURL), pollMs: 5 })
		);
		expect(out.done).toBe(true);
		expect(comparableRecords(store)).toEqual(comparableRecords(expected));
		const answers = await store.readBatchAnswers(await run());
		const failed = answers.filter((a) => 'error' in a || ('status' in a && a.status >= 400));
		expect(failed.some((a) => 'error' in a && a.error.code === 'batch_expired')).toBe(true);
		expect(failed.some((a) => 'status' in a && a.status === 500)).toBe(true);
		// Every failed attempt was asked again as the next attempt, in a later round.
		for (const f of failed) {
			const next = f.customId.replace(/\.(\d+)$/, (_, a) => `.${Number(a) + 1}`);
			const retry = answers.find((a) => a.customId === next);
			expect(retry?.round).toBeGreaterThan(f.round!);
		}
	});
});

describe('files mode through importBatchOutputs', () => {
	it('writes each round, waits, imports, and ends with the interactive records', async () => {
		const handler = byTask(simulatedScript);
		const expected = await interactive(handler);
		const cluster = await serve(handler);
		const store = new MemoryStore();
		const options = { ...common, store, endpoints: endpointsOf(NODE) };
		let waited = 0;
		for (;;) {
			const { files, open } = memoryFiles();
			const out = await runBatch(options, filesSender(open));
			if (out.done) {
				expect(out.rounds).toBe(waited);
				expect(out.longestChain).toBe(waited);
				break;
			}
			waited++;
			expect(out.waiting.round).toBe(waited);
			expect(out.waiting.files.map((f) => f.name)).toEqual([...files.keys()]);
			const outputs = await Promise.all(
				[...files].map(async ([name, lines]) =>
					outputText(name.replace('.jsonl', '.output.jsonl'), await answerRound(cluster, lines))
				)
			);
			const got = await importBatchOutputs(options, outputs);
			expect(got).toMatchObject({ round: waited, missing: 0 });
		}
		expect(comparableRecords(store)).toEqual(comparableRecords(expected));
	});

	it('refuses a torn, a foreign and a duplicated output file by name and line; nothing saved', async () => {
		const handler = byTask(simulatedScript);
		const cluster = await serve(handler);
		const store = new MemoryStore();
		const options = { ...common, store, endpoints: endpointsOf(NODE) };
		const { files, open } = memoryFiles();
		const out = await runBatch(options, filesSender(open));
		expect(out.done).toBe(false);
		const lines = [...files.values()].flat();
		const text = await answerRound(cluster, lines);
		const before = store.toFiles();
		const rows = text.split('\n').filter(Boolean);
		const foreign = rows[1].replace(/"custom_id":"lp1\.[0-9a-f]{8}/, '"custom_id":"lp1.00000000');
		const cases: [string, string, RegExp][] = [
			['torn.jsonl', text.slice(0, -20), /torn\.jsonl, line \d+/],
			['foreign.jsonl', [rows[0], foreign, ''].join('\n'), /foreign\.jsonl, line 2: .*another run/],
			['twice.jsonl', [rows[0], rows[0], ''].join('\n'), /twice\.jsonl, line 2: .*second time/]
		];
		for (const [name, body, message] of cases) {
			await expect(importBatchOutputs(options, [outputText(name, body)])).rejects.toThrow(message);
			expect(store.toFiles()).toEqual(before);
		}
		await expect(
			importBatchOutputs(options, [outputText('half.jsonl', rows[0] + '\n')])
		).rejects.toThrow(/fewer requests than round 1/);
		expect(store.toFiles()).toEqual(before);
	});
});

import { describe, expect, it } from 'vitest';
import { makeDataset } from '../../../../tests/fixtures/engine/cases';
import { makeCallEntry } from '../../../../tests/support/record-factories';
import { runStages } from '../engine/run-stages';
import { ModelCallError } from '../errors';
import { callLogPath, modelDirName, type RunKey } from '../layout';
import type { ModelClient } from '../model/types';
import { createSimulatedClient } from '../simulated';
import { MemoryStore } from '../store/memory-store';
import { callLogLine, dropTornTail, parseCallLog, REDACTED } from './log';
import type { CallLogEntry } from './schema';
import { MAX_CALL_FIELD_CHARS } from './schema';
import { selectCalls } from './select';
import { callTotals } from './totals';

const MODELS = { evaluated: 'sim-eval', user: 'sim-user', judge: 'sim-judge' };
const ENDPOINTS = { evaluated: 'x', user: 'x', judge: 'x' };
const ALL = ['gen', 'dcg', 'ljp-direct', 'ljp-gold', 'ljp-interaction'] as const;

async function run(
	store: MemoryStore,
	options: Partial<Parameters<typeof runStages>[0]> = {}
): Promise<RunKey> {
	const result = await runStages({
		dataset: makeDataset(3),
		stages: [...ALL],
		client: createSimulatedClient(),
		store,
		runId: 'run1',
		models: MODELS,
		endpoints: ENDPOINTS,
		...options
	});
	return result.run;
}

const entry = makeCallEntry;

describe('the engine writes a call log', () => {
	it('logs every call with its stage, task, round, exact prompt and answer', async () => {
		const prompts: string[] = [];
		const inner = createSimulatedClient();
		const client: ModelClient = {
			simulated: true,
			complete: (req) => {
				prompts.push(req.prompt);
				return inner.complete(req);
			}
		};
		const store = new MemoryStore();
		const key = await run(store, { client });
		const calls = await store.readCalls(key);
		expect(calls).toHaveLength(prompts.length);
		expect(calls.map((c) => c.prompt).sort()).toEqual([...prompts].sort());
		expect(new Set(calls.map((c) => c.session)).size).toBe(1);
		expect(calls.map((c) => c.seq).sort((a, b) => a - b)).toEqual(calls.map((_, i) => i));
		// a1 on each history, then its LCA label, per case.
		const a1 = calls.filter((c) => c.task === 'lexawn' && c.history_type);
		expect(a1).toHaveLength(6);
		expect(calls.filter((c) => c.task === 'judge_lca' && c.history_type)).toHaveLength(6);
		const dcg = calls.filter((c) => c.stage === 'dcg' && c.case_number === '2024-民-001');
		expect(dcg.map((c) => `${c.task}:${c.round}`).sort()).toEqual([
			'force_ask:1',
			'force_ask:2',
			'judge_dcg:1',
			'judge_dcg:2',
			'user_standard:1'
		]);
		for (const c of calls) {
			expect(c.model).toBe(MODELS[c.role]);
			expect(c.response).not.toBeNull();
			expect(c.usage?.prompt).toBeGreaterThan(0);
			expect(c.retries).toBe(0);
		}
		const saved = store.toFiles().get(callLogPath(key))!;
		expect(saved.split('\n').filter(Boolean)).toHaveLength(calls.length);
	});

	it('keeps a case_number that is an integer in the dataset an integer', async () => {
		const dataset = makeDataset(
			1,
			(k) => ({ ...k, case_number: '7', case_number_value: 7 }) as never
		);
		const store = new MemoryStore();
		const key = await run(store, { dataset, stages: ['ljp-direct'] });
		const calls = await store.readCalls(key);
		expect(calls.map((c) => c.case_number)).toEqual([7, 7]);
	});

	it('leaves every record byte-identical: the log is not an input of input_sha256', async () => {
		const logged = new MemoryStore();
		const silent = new MemoryStore();
		const key = await run(logged);
		await run(silent, { callLog: null });
		const strip = (files: Map<string, string>) =>
			new Map(
				[...files]
					.filter(([p]) => !p.endsWith('manifest.json') && !p.endsWith('calls.jsonl'))
					.map(([p, t]) => [p, t])
			);
		expect(silent.toFiles().has(callLogPath(key))).toBe(false);
		expect(strip(logged.toFiles())).toEqual(strip(silent.toFiles()));
	});

	it('logs a re-asked judge output with why it was refused', async () => {
		const inner = createSimulatedClient();
		let refused = false;
		const client: ModelClient = {
			simulated: true,
			async complete(req) {
				if (req.task === 'judge_extract' && !refused) {
					refused = true;
					return { response: '不是 JSON', reasoning: null, finishReason: 'stop', usage: null };
				}
				return inner.complete(req);
			}
		};
		const store = new MemoryStore();
		const key = await run(store, { client, stages: ['ljp-direct'], limit: 1 });
		const judge = (await store.readCalls(key)).filter((c) => c.task === 'judge_extract');
		expect(judge).toHaveLength(2);
		expect(judge[0]).toMatchObject({ response: '不是 JSON', usage: null });
		expect(judge[0].judge_invalid).toBeTruthy();
		expect(judge[1].judge_invalid ?? null).toBeNull();
		expect(selectCalls(judge, { stages: ['ljp-direct'], task: 'judge_extract' }).calls).toEqual(
			judge
		);
	});

	it('logs a call that failed for good with its attempts and error', async () => {
		const client: ModelClient = {
			simulated: false,
			async complete(req) {
				throw new ModelCallError(`case ${req.caseNumber}: 503 overloaded`, {
					kind: 'server',
					status: 503,
					attempts: [
						{
							attempt: 1,
							outcome: 'server',
							status: 503,
							reason: 'overloaded',
							latencyMs: 5,
							delayMs: 10
						},
						{ attempt: 2, outcome: 'server', status: 503, reason: 'overloaded', latencyMs: 6 }
					]
				});
			}
		};
		const store = new MemoryStore();
		await expect(run(store, { client, stages: ['ljp-direct'], limit: 1 })).rejects.toThrow(/503/);
		const key = { runId: 'run1', modelDir: await modelDirName(MODELS.evaluated) };
		const [line] = await store.readCalls(key);
		expect(line).toMatchObject({
			stage: 'ljp-direct',
			task: 'force_judge',
			response: null,
			retries: 1,
			error: { kind: 'server', status: 503 },
			attempts: [
				{ attempt: 1, outcome: 'server', status: 503, delay_ms: 10 },
				{ attempt: 2, outcome: 'server' }
			]
		});
		expect(callTotals([line])).toMatchObject({ calls: 1, failed: 1, retries: 1 });
	});

	it('a resume appends: lines of an interrupted case and of its regeneration carry their sessions', async () => {
		const store = new MemoryStore();
		const stop = new AbortController();
		const inner = createSimulatedClient();
		let n = 0;
		const client: ModelClient = {
			simulated: true,
			async complete(req) {
				// Case 0's force_judge answers, then its judge call is cut off: the case is not saved.
				if (++n === 2) stop.abort();
				return inner.complete({ ...req, signal: stop.signal });
			}
		};
		await expect(
			run(store, { client, stages: ['ljp-direct'], limit: 1, signal: stop.signal, concurrency: 1 })
		).rejects.toThrow(/stopped/);
		const key = await run(store, { stages: ['ljp-direct'], limit: 1 });
		const calls = await store.readCalls(key);
		const sessions = [...new Set(calls.map((c) => c.session))];
		expect(sessions).toHaveLength(2);
		const forced = calls.filter((c) => c.task === 'force_judge');
		expect(forced).toHaveLength(2);
		expect(forced[0].session).not.toBe(forced[1].session);
		// Inspect shows the regenerated case's calls, and counts the earlier ones.
		const shown = selectCalls(calls, { stages: ['ljp-direct'], task: 'force_judge' });
		expect(shown.calls).toEqual([forced[1]]);
		expect(shown.earlier).toBe(1);
	});
});

describe('call-log lines', () => {
	const KEY = 'sk-canary-0123456789abcdef';

	it('redact every key, in any field, before writing', () => {
		const line = callLogLine(
			entry({
				prompt: `x ${KEY} y`,
				error: { kind: 'auth', message: `bad key ${KEY}` },
				attempts: [{ attempt: 1, outcome: 'auth', reason: `echo ${KEY}`, latency_ms: 1 }],
				response: null
			}),
			[KEY]
		);
		expect(line).not.toContain(KEY);
		expect(line.split(REDACTED)).toHaveLength(4);
		expect(parseCallLog(line, 'calls.jsonl')[0].prompt).toBe(`x ${REDACTED} y`);
	});

	it('cut an over-long field and say so, so every written line can be read back', () => {
		const long = '长'.repeat(MAX_CALL_FIELD_CHARS + 10);
		const line = callLogLine(
			entry({ reasoning: long, response: '\u0001'.repeat(MAX_CALL_FIELD_CHARS + 1) })
		);
		const [back] = parseCallLog(line, 'calls.jsonl');
		expect(back.truncated).toEqual(expect.arrayContaining(['reasoning', 'response']));
		expect(back.reasoning!.length).toBeLessThan(MAX_CALL_FIELD_CHARS + 100);
		expect(back.reasoning).toMatch(/more characters not kept/);
	});

	// What a provider sends (finish reason, usage, statuses, timings) is checked on the way in:
	// a line a reader would refuse is never written.
	const hostile: [string, Partial<CallLogEntry>][] = [
		['a finish reason of 101 characters', { finish_reason: 'x'.repeat(101) }],
		['a finish reason that is not text', { finish_reason: 7 as never }],
		['negative prompt tokens', { usage: { prompt: -1, completion: 2 } }],
		['tokens as text', { usage: { prompt: '12' as never, completion: 2 } }],
		['fractional reasoning tokens', { usage: { prompt: 1, completion: 2, reasoning: 0.5 } }],
		['a negative latency', { latency_ms: -3 }],
		[
			'a fractional status',
			{ attempts: [{ attempt: 1, outcome: 'server', status: 500.5, latency_ms: 1 }] }
		],
		[
			'a negative delay',
			{ attempts: [{ attempt: 1, outcome: 'rate_limit', latency_ms: 1, delay_ms: -1 }] }
		],
		[
			'an error status as text',
			{ error: { kind: 'server', status: '500' as never, message: 'x' } }
		],
		['a model id of 301 characters', { model: 'm'.repeat(301) }],
		['an empty case number', { case_number: '' }]
	];
	for (const [what, fields] of hostile) {
		it(`are not written with ${what}, which a reader would refuse`, () => {
			expect(() => parseCallLog(`${JSON.stringify(entry(fields))}\n`, 'calls.jsonl')).toThrow();
			expect(() => callLogLine(entry(fields))).toThrow();
		});
	}

	it('are refused when malformed, naming the file and the line', () => {
		const good = callLogLine(entry());
		expect(() => parseCallLog(`${good}{oops\n`, 'runs/r/m/calls.jsonl')).toThrow(
			/runs\/r\/m\/calls\.jsonl, line 2: not valid JSON/
		);
		expect(() =>
			parseCallLog(`${good}${JSON.stringify({ ...entry(), role: 'boss' })}\n`, 'calls.jsonl')
		).toThrow(/calls\.jsonl, line 2: not a call-log entry: field "role"/);
		expect(() => parseCallLog(`${good}${good.slice(0, 20)}`, 'calls.jsonl')).toThrow(
			/line 2: the last line has no line end/
		);
		expect(() => parseCallLog(`${'x'.repeat(1_000_001)}\n`, 'calls.jsonl')).toThrow(
			/line 1: 1,000,001 characters, more than/
		);
		// The rules of every JSONL file of the layout: zero bytes are damage, named as such.
		expect(() => parseCallLog(`${good}\u0000\u0000\n`, 'calls.jsonl')).toThrow(
			/calls\.jsonl, line 2: holds zero bytes/
		);
		expect(dropTornTail(`${good}${good.slice(0, 20)}`)).toBe(good);
	});
});

describe('callTotals', () => {
	it('adds tokens per role and stage, counts retries, and sums wall time per session', () => {
		const entries = [
			entry({ seq: 0, usage: { prompt: 100, completion: 20, reasoning: 7 }, latency_ms: 1000 }),
			entry({
				seq: 1,
				started_at: '2026-01-01T00:00:00.500Z',
				role: 'judge',
				task: 'judge_lca',
				usage: { prompt: 30, completion: 4 },
				latency_ms: 2000,
				retries: 2
			}),
			entry({
				seq: 2,
				stage: 'dcg',
				role: 'user',
				task: 'user_standard',
				usage: null,
				latency_ms: 50
			}),
			// A later session (a resume) 1 hour on: its 300 ms add to wall time, the hour does not.
			entry({
				session: 's2',
				started_at: '2026-01-01T01:00:00.000Z',
				stage: 'dcg',
				task: 'force_ask',
				usage: { prompt: 1, completion: 1 },
				latency_ms: 300,
				response: null
			})
		];
		const t = callTotals(entries);
		expect(t).toMatchObject({
			calls: 4,
			failed: 1,
			retries: 2,
			no_usage: 1,
			latency_ms: 3350,
			sessions: 2,
			wall_ms: 2500 + 300,
			tokens: { prompt: 131, completion: 25, reasoning: 7 }
		});
		expect(t.by_role.evaluated.tokens).toEqual({ prompt: 101, completion: 21, reasoning: 7 });
		expect(t.by_role.judge.tokens).toEqual({ prompt: 30, completion: 4, reasoning: null });
		expect(t.by_role.user).toMatchObject({ calls: 1, no_usage: 1 });
		expect(Object.keys(t.by_stage)).toEqual(['gen', 'dcg']);
		expect(t.by_stage.gen.judge).toMatchObject({ calls: 1, retries: 2 });
		expect(t.by_stage.dcg.evaluated).toMatchObject({ calls: 1, failed: 1 });
		expect(callTotals([])).toMatchObject({ calls: 0, wall_ms: 0, sessions: 0 });
	});
});

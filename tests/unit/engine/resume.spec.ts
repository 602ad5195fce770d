/** PROTOCOL.md §3 failures and §6 resume: what is kept, what is regenerated, what is refused. */
import { describe, expect, it } from 'vitest';
import {
	CheckpointError,
	ModelCallError,
	UpstreamIncompleteError
} from '../../../src/lib/core/errors';
import { DEFAULT_PROMPT_PACK } from '../../../src/lib/core/prompts/default-pack';
import { DEFAULT_SETTINGS } from '../../../src/lib/core/records';
import { MemoryStore } from '../../../src/lib/core/store/memory-store';
import { makeDataset } from '../../fixtures/engine/cases';
import { testAllStorage } from '../store-contract';
import { ALL_STAGES, records, run, runKey } from './harness';
import { outage, ScriptedClient } from './scripted-client';

const dataset = makeDataset(4);
const numbers = dataset.cases.map((c) => c.case_number);

/** Every stage file of a store, manifests left out (they hold the creation time). */
function stageFiles(store: MemoryStore): [string, string][] {
	return [...store.toFiles()].filter(([path]) => !path.startsWith('runs/')).sort();
}

async function cleanRun(): Promise<MemoryStore> {
	const store = new MemoryStore();
	await run(new ScriptedClient(), store, { dataset });
	return store;
}

describe('a failure mid-stage', () => {
	it('stops the stage naming the case, keeps finished cases, and a rerun completes to the clean result', async () => {
		const store = new MemoryStore();
		const failing = new ScriptedClient((req) =>
			req.caseNumber === numbers[2] ? outage(req) : undefined
		);
		const error = await run(failing, store, { dataset, concurrency: 1 }).catch((e) => e);
		expect(error).toBeInstanceOf(ModelCallError);
		expect(error.message).toContain(`gen stopped at case #2 (case_number ${numbers[2]})`);
		expect(error.message).toContain('2 of 4 cases are saved');
		expect((await records(store, 'interaction')).map((r) => r.case_number)).toEqual(
			numbers.slice(0, 2)
		);
		// No case after the failing one was started.
		expect(failing.requests.some((r) => r.caseNumber === numbers[3])).toBe(false);

		const healthy = new ScriptedClient();
		await run(healthy, store, { dataset });
		const genCalls = healthy.requests.filter((r) => ['lexawn', 'judge_lca'].includes(r.task));
		expect(new Set(genCalls.map((r) => r.caseNumber))).toEqual(new Set(numbers.slice(2)));
		expect(stageFiles(store)).toEqual(stageFiles(await cleanRun()));
	});

	it('lets the cases in flight finish and be saved, and starts no new case', async () => {
		const many = makeDataset(6);
		const store = new MemoryStore();
		const client = new ScriptedClient((req) =>
			req.caseNumber === many.cases[1].case_number ? outage(req) : undefined
		);
		client.delay = (req) => (req.caseNumber === many.cases[0].case_number ? 5 : 0);
		await expect(
			run(client, store, { dataset: many, stages: ['dcg'], concurrency: 2 })
		).rejects.toThrow(ModelCallError);
		expect((await records(store, 'DCG_results')).map((r) => r.case_number)).toEqual([
			many.cases[0].case_number
		]);
		const started = new Set(client.requests.map((r) => r.caseNumber));
		expect(started).toEqual(new Set([many.cases[0].case_number, many.cases[1].case_number]));
	});

	it('stops on request, keeping finished cases; a rerun completes', async () => {
		const store = new MemoryStore();
		const controller = new AbortController();
		const client = new ScriptedClient((req) => {
			if (req.caseNumber === numbers[1]) controller.abort();
			return undefined;
		});
		const error = await run(client, store, {
			dataset,
			stages: ['ljp-direct'],
			concurrency: 1,
			signal: controller.signal
		}).catch((e) => e);
		expect(error).toBeInstanceOf(ModelCallError);
		expect(error.details.kind).toBe('aborted');
		expect(error.message).toMatch(/ljp-direct stopped on request; \d of 4 cases are saved/);
		expect(client.requests.some((r) => r.caseNumber === numbers[2])).toBe(false);
		await run(new ScriptedClient(), store, { dataset, stages: ['ljp-direct'] });
		expect((await records(store, 'LJP_direct')).map((r) => r.case_number)).toEqual(numbers);
	});
});

describe('judge output', () => {
	it('re-asks an invalid judge output and keeps the valid answer', async () => {
		const client = new ScriptedClient((req, seen) => {
			if (req.task !== 'judge_extract') return undefined;
			const asked = seen.filter(
				(r) => r.task === 'judge_extract' && r.caseNumber === req.caseNumber
			).length;
			// First a wrong count (2 verdicts for 3 claims), then a valid answer.
			return asked === 1
				? '{"verdicts": ["支持", "支持"]}'
				: '```json\n{"verdicts": ["支持", "驳回", "支持"]}\n```';
		});
		const store = new MemoryStore();
		const progress: number[] = [];
		await run(client, store, {
			dataset: makeDataset(1),
			stages: ['ljp-direct'],
			onProgress: (p) => progress.push(p.retries)
		});
		const [rec] = await records(store, 'LJP_direct');
		expect(rec.predicted).toEqual(['支持', '驳回', '支持']);
		expect(client.of('judge_extract')).toHaveLength(2);
		expect(Math.max(...progress)).toBe(1);
	});

	it('fails the stage after 3 re-asks, naming the case and keeping the raw output', async () => {
		const client = new ScriptedClient((req) =>
			req.task === 'judge_lca' && req.caseNumber === numbers[1] ? '我认为这是澄清。' : undefined
		);
		const store = new MemoryStore();
		const error = await run(client, store, { dataset, stages: ['gen'], concurrency: 1 }).catch(
			(e) => e
		);
		expect(error).toBeInstanceOf(ModelCallError);
		expect(error.details.kind).toBe('invalid_output');
		expect(error.details.rawOutput).toBe('我认为这是澄清。');
		expect(error.message).toContain(`case_number ${numbers[1]}`);
		// Both histories of the case were judged; the failing one was asked 1 + 3 times.
		expect(client.of('judge_lca', numbers[1]).length).toBeGreaterThanOrEqual(4);
		expect((await records(store, 'a1')).map((r) => r.case_number)).toEqual([
			numbers[0],
			numbers[0]
		]);
	});
});

describe('resume', () => {
	it('makes no model call when every stage is complete', async () => {
		const store = await cleanRun();
		const before = stageFiles(store);
		const client = new ScriptedClient();
		const result = await run(client, store, { dataset });
		expect(client.requests).toHaveLength(0);
		expect(result.created).toBe(false);
		expect(result.stages.map((s) => [s.resumed, s.generated])).toEqual(
			ALL_STAGES.map(() => [4, 0])
		);
		expect(stageFiles(store)).toEqual(before);
	});

	const refusals = [
		{
			what: 'a changed temperature',
			options: { settings: { ...DEFAULT_SETTINGS, temperature: 0.5 } },
			message: /settings\.temperature: saved 0\.7, now 0\.5/
		},
		{
			what: 'an edited prompt pack',
			options: {
				pack: {
					...DEFAULT_PROMPT_PACK,
					templates: {
						...DEFAULT_PROMPT_PACK.templates,
						lexawn: `${DEFAULT_PROMPT_PACK.templates.lexawn}\n`
					}
				}
			},
			message: /prompts_sha256: saved/
		},
		{
			what: 'a different limit',
			options: { limit: 2 },
			message: /selected_case_numbers: saved 4 cases, now 2/
		},
		{
			what: 'another judge model',
			options: { models: { evaluated: 'eval-model', user: 'user-model', judge: 'other-judge' } },
			message: /models\.judge: saved "judge-model", now "other-judge"/
		}
	];
	it.each(refusals)(
		'refuses $what under the same run id, before any call',
		async ({ options, message }) => {
			const store = await cleanRun();
			const client = new ScriptedClient();
			const error = await run(client, store, { dataset, ...options }).catch((e) => e);
			expect(error).toBeInstanceOf(CheckpointError);
			expect(error.message).toMatch(message);
			expect(error.message).toContain('--run-id');
			expect(client.requests).toHaveLength(0);
		}
	);

	// PROTOCOL.md §5–§6: a rate-limited run must be resumable with more patience, in every store.
	testAllStorage(
		'resumes with other --retries, --timeout and --concurrency, recording each change',
		async (h) => {
			const first = await run(new ScriptedClient(), h.store, { dataset, stages: ['gen'] });
			expect(first.created).toBe(true);
			const patient = { ...DEFAULT_SETTINGS, retries: 10, timeout_s: 600 };
			const client = new ScriptedClient();
			const resumed = await run(client, h.store, { dataset, settings: patient, concurrency: 1 });
			expect(resumed.created).toBe(false);
			expect(resumed.stages.map((s) => [s.stage, s.resumed, s.generated])).toEqual(
				ALL_STAGES.map((stage) => [stage, stage === 'gen' ? 4 : 0, stage === 'gen' ? 0 : 4])
			);
			const manifest = await (await h.reopen()).readManifest(await runKey());
			expect(manifest?.settings).toEqual(DEFAULT_SETTINGS);
			expect(manifest?.operational_history?.map(({ at: _, ...v }) => v)).toEqual([
				{ timeout_s: 120, retries: 3, concurrency: 4 },
				{ timeout_s: 600, retries: 10, concurrency: 1 }
			]);
			expect(manifest?.operational_history?.[0].at).toBe(manifest?.created_at);
			// The same records as a run that never changed its patience.
			const clean = await cleanRun();
			for (const file of ['a1', 'interaction', 'LCA_results', 'LJP_gold'] as const) {
				expect(await records(h.store, file)).toEqual(await records(clean, file));
			}
			// Resuming with the values in force adds no entry.
			await run(new ScriptedClient(), h.store, { dataset, settings: patient, concurrency: 1 });
			expect((await h.store.readManifest(await runKey()))?.operational_history).toHaveLength(2);
		}
	);

	it('refuses a saved record made from other inputs, naming file and case', async () => {
		const store = await cleanRun();
		// Same file hash, but case 2's history now differs from what its a1 record was made from.
		const edited = {
			...dataset,
			cases: dataset.cases.map((k, i) =>
				i === 1 ? { ...k, complete: [{ role: 'user' as const, content: '改过的咨询内容' }] } : k
			)
		};
		const client = new ScriptedClient();
		const error = await run(client, store, { dataset: edited, stages: ['gen'] }).catch((e) => e);
		expect(error).toBeInstanceOf(CheckpointError);
		expect(error.message).toMatch(/a1\.jsonl: 1 saved record/);
		expect(error.message).toContain(`case_number ${numbers[1]} (complete history)`);
		expect(client.requests).toHaveLength(0);
	});

	it('lca re-judges saved a1 responses without generating anything', async () => {
		const full = await cleanRun();
		const files = [...full.toFiles()].filter(([path]) => !path.endsWith('LCA_results.jsonl'));
		const store = MemoryStore.fromFiles(files);
		const client = new ScriptedClient();
		await run(client, store, { dataset, stages: ['lca'] });
		expect(new Set(client.requests.map((r) => r.task))).toEqual(new Set(['judge_lca']));
		expect(client.requests).toHaveLength(8);
		expect(await records(store, 'LCA_results')).toEqual(await records(full, 'LCA_results'));
		// The same labels again, so the saved interactions still fit and gen has nothing to do.
		const after = new ScriptedClient();
		await run(after, store, { dataset, stages: ['gen'] });
		expect(after.requests).toHaveLength(0);
	});

	const prerequisites = [
		{
			stages: ['lca'] as const,
			message:
				/lca needs AwN_gen\/r1\/.+\/a1\.jsonl complete .* 8 of 8 records are missing .*Run "gen"/s
		},
		{
			stages: ['ljp-interaction'] as const,
			message: /ljp-interaction needs AwN_gen\/r1\/.+\/interaction\.jsonl complete .*Run "gen"/s
		}
	];
	it.each(prerequisites)('$stages refuses to start without gen', async ({ stages, message }) => {
		const client = new ScriptedClient();
		const error = await run(client, new MemoryStore(), { dataset, stages: [...stages] }).catch(
			(e) => e
		);
		expect(error).toBeInstanceOf(CheckpointError);
		expect(error.message).toMatch(message);
		expect(client.requests).toHaveLength(0);
	});

	it('ljp without gen runs Direct and Gold (they do not read gen), then refuses the interaction', async () => {
		const store = new MemoryStore();
		const client = new ScriptedClient();
		const ljp = ['ljp-direct', 'ljp-gold', 'ljp-interaction'] as const;
		const error = await run(client, store, { dataset, stages: [...ljp] }).catch((e) => e);
		expect(error).toBeInstanceOf(UpstreamIncompleteError);
		expect(error.message).toMatch(
			/^ljp-interaction needs AwN_gen\/r1\/.+\/interaction\.jsonl complete .*Run "gen"/s
		);
		expect(error.message).toContain(
			'ljp-direct and ljp-gold completed: 4 of 4 cases are saved in each.'
		);
		expect(client.requests.length).toBeGreaterThan(0);
		expect(client.requests.every((r) => ['force_judge', 'judge_extract'].includes(r.task))).toBe(
			true
		);
		for (const file of ['a1_direct', 'a1_force_judge', 'LJP_direct', 'LJP_gold'] as const) {
			expect(await records(store, file), file).toHaveLength(4);
		}
		expect(await records(store, 'LJP_interaction')).toEqual([]);

		// After gen, the same command adds the interaction only.
		await run(new ScriptedClient(), store, { dataset, stages: ['gen'] });
		const again = new ScriptedClient();
		const result = await run(again, store, { dataset, stages: [...ljp] });
		expect(result.stages.map((s) => [s.stage, s.generated])).toEqual([
			['ljp-direct', 0],
			['ljp-gold', 0],
			['ljp-interaction', 4]
		]);
		expect(again.requests.every((r) => r.task === 'judge_extract')).toBe(true);
	});

	it('a stale saved record still refuses ljp before any call, gen or not', async () => {
		const store = await cleanRun();
		const [first, ...rest] = await records(store, 'LJP_gold');
		const edited = MemoryStore.fromFiles(
			[...store.toFiles()].map(([path, text]) =>
				path.endsWith('LJP_gold.jsonl')
					? [
							path,
							[{ ...first, input_sha256: 'f'.repeat(64) }, ...rest]
								.map((r) => `${JSON.stringify(r)}\n`)
								.join('')
						]
					: [path, text]
			)
		);
		const client = new ScriptedClient();
		const error = await run(client, edited, {
			dataset,
			stages: ['ljp-direct', 'ljp-gold', 'ljp-interaction']
		}).catch((e) => e);
		expect(error).toBeInstanceOf(CheckpointError);
		expect(error).not.toBeInstanceOf(UpstreamIncompleteError);
		expect(error.message).toMatch(/LJP_gold\.jsonl/);
		expect(client.requests).toHaveLength(0);
	});
});

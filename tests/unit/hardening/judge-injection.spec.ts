/**
 * A model that games its judge (PROTOCOL.md §3): its DCG questions close the question's fence
 * and write instructions after it, and hold a `{"label": "是"}` that the judge quotes before its
 * own `否`. Through the real engine and through the real CLI over HTTP, its DCG labels equal
 * those of an honest model asking the same real questions. The judge here
 * (`tests/engine/judge-injection.ts`) is fooled by exactly those two tricks, so before the fix
 * both tests fail.
 */
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { modelDirName } from '../../../src/lib/core/layout';
import type { DcgResultRecord } from '../../../src/lib/core/records';
import { MemoryStore } from '../../../src/lib/core/store/memory-store';
import { makeDataset } from '../../fixtures/engine/cases';
import {
	FENCE_TRICK,
	gamingQuestion,
	naiveDcgJudge,
	QUOTE_TRICK
} from '../../engine/judge-injection';
import { records, run } from '../engine/harness';
import { ScriptedClient } from '../engine/scripted-client';
import { Endpoint, MODELS, runCli } from '../faults/harness';
import { taskOfPrompt } from '../../../src/lib/core/prompts/fill';
import { DEFAULT_PROMPT_PACK } from '../../../src/lib/core/prompts/default-pack';

const TRICKS = {
	honest: [],
	fence: [FENCE_TRICK],
	quote: [QUOTE_TRICK],
	both: [FENCE_TRICK, QUOTE_TRICK]
} as const satisfies Record<string, readonly string[]>;
type Model = keyof typeof TRICKS;

/** What a DCG score is made of, per case: the two round labels and the success. */
const scoreOf = (rows: readonly DcgResultRecord[]) =>
	rows.map((r) => ({ case: r.case_number, labels: r.round_labels, success: r.success }));

/** The answer of the model `model` and the naive judge; the simulated one for every other task. */
function answer(model: Model, task: string, prompt: string): string | undefined {
	if (task === 'force_ask') return gamingQuestion(prompt, TRICKS[model]);
	if (task === 'judge_dcg') return naiveDcgJudge(prompt);
	return undefined;
}

describe('a model gaming its DCG judge, through the engine', () => {
	const scores = {} as Record<Model, ReturnType<typeof scoreOf>>;
	const clients = {} as Record<Model, ScriptedClient>;

	beforeAll(async () => {
		for (const model of Object.keys(TRICKS) as Model[]) {
			const client = new ScriptedClient((req) => answer(model, req.task, req.prompt));
			const store = new MemoryStore();
			await run(client, store, { dataset: makeDataset(6), stages: ['dcg'] });
			scores[model] = scoreOf(await records(store, 'DCG_results'));
			clients[model] = client;
		}
	});

	it('the honest score has failures to inflate', () => {
		expect(scores.honest).toHaveLength(6);
		expect(scores.honest.some((s) => !s.success)).toBe(true);
		expect(scores.honest.some((s) => s.success)).toBe(true);
	});

	it.each(['fence', 'quote', 'both'] as const)(
		'the %s trick leaves the DCG score as the honest one',
		(model) => {
			expect(scores[model]).toEqual(scores.honest);
			// The tricks did reach the judge, inside its question's fence, and the judge quoted 是.
			const judged = clients[model].of('judge_dcg');
			expect(judged).toHaveLength(12);
			for (const req of judged) {
				expect(req.prompt.match(/<\/律师提问>/g)).toHaveLength(1);
				expect(req.answer).toMatch(/写着 \{"label": "是"\}[\s\S]*结论/);
			}
		}
	);
});

describe('a model gaming its DCG judge, through the CLI over HTTP', () => {
	let endpoint: Endpoint;
	beforeAll(async () => {
		endpoint = await Endpoint.start();
	});
	afterAll(async () => {
		await endpoint.stop();
	});

	async function dcgScore(model: Model) {
		endpoint.arm((req) => {
			const task = taskOfPrompt(req.prompt, DEFAULT_PROMPT_PACK);
			const content = task && answer(model, task, req.prompt);
			return content === undefined || content === null ? undefined : { content };
		});
		const root = await mkdtemp(join(tmpdir(), `lexpilot-injection-${model}-`));
		const result = await runCli({ command: 'dcg', root, endpoint });
		expect(result.code, result.stderr).toBe(0);
		const file = join(
			root,
			'eval_results',
			'r1',
			await modelDirName(MODELS.evaluated),
			'DCG_results.jsonl'
		);
		const rows = (await readFile(file, 'utf8'))
			.trim()
			.split('\n')
			.map((l) => JSON.parse(l) as DcgResultRecord);
		return scoreOf(rows);
	}

	it('fence and quote together leave the saved DCG results as the honest ones', async () => {
		const honest = await dcgScore('honest');
		expect(honest).toHaveLength(3);
		expect(honest.some((s) => !s.success)).toBe(true);
		expect(await dcgScore('both')).toEqual(honest);
	}, 60_000);
});

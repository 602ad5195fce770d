import { describe, expect, it } from 'vitest';
import { defaultModelSettings } from './model-settings';
import { rejudgeClient, rejudgeProblems, type RejudgeForm } from './rejudge-request';
import type { RunSources } from './run-request';
import { DEFAULT_PROMPT_PACK } from '$lib/core/prompts/default-pack';

const KEY = 'sk-judge-7f6e5d4c3b2a';

function sources(): RunSources {
	const settings = defaultModelSettings();
	settings.defaults = { preset: 'custom', baseURL: 'https://judge.example/v1', apiKey: KEY };
	return {
		dataset: {
			cases: [],
			sha256: '0'.repeat(64),
			historyFields: { complete: 'a', underspecified: 'b' },
			categories: {}
		},
		datasetName: 'd.json',
		settings,
		pack: DEFAULT_PROMPT_PACK
	};
}

const form = (over: Partial<RejudgeForm> = {}): RejudgeForm => ({
	source: { runId: 'r1', modelDir: 'm-12345678' },
	judgeModel: 'judge-2',
	judgeBaseURL: 'https://judge.example/v1',
	runId: 'r1-j2',
	...over
});

describe('rejudgeClient', () => {
	it("sends the Models page's judge key only to that page's judge endpoint", () => {
		expect(rejudgeClient(sources(), form()).spec.endpoints.judge.apiKey).toBe(KEY);
		const other = rejudgeClient(sources(), form({ judgeBaseURL: 'http://127.0.0.1:9/v1' }));
		expect(other.spec.endpoints.judge.apiKey).toBe('');
		expect(other.keys).toEqual([]);
		expect(other.judge).toEqual({ model: 'judge-2', endpoint: 'http://127.0.0.1:9/v1' });
	});

	it('takes simulated://offline as the offline judge, with no key', () => {
		const sim = rejudgeClient(sources(), form({ judgeBaseURL: 'simulated://offline' }));
		expect(sim.spec.simulated).toBe(true);
		expect(sim.keys).toEqual([]);
	});
});

describe('rejudgeProblems', () => {
	it('asks for a source, a new run id other than the source, a model and an endpoint', () => {
		expect(rejudgeProblems(sources(), form())).toEqual([]);
		expect(rejudgeProblems(sources(), form({ source: null }))).toHaveLength(1);
		expect(rejudgeProblems(sources(), form({ runId: 'r1' }))).toHaveLength(1);
		expect(rejudgeProblems(sources(), form({ runId: 'a b' }))).toHaveLength(1);
		expect(rejudgeProblems(sources(), form({ judgeModel: ' ' }))).toHaveLength(1);
		expect(rejudgeProblems(sources(), form({ judgeBaseURL: 'ftp://x' }))).toHaveLength(1);
		expect(rejudgeProblems({ ...sources(), dataset: null }, form())).toHaveLength(1);
	});
});

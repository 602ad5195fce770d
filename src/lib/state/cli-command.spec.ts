import { describe, expect, it } from 'vitest';
import { settingsWith } from '../../../tests/support/model-settings';
import { cliCommands, cliStageCommands, KEY_PLACEHOLDER, shellQuote } from './cli-command';
import type { ModelSettings } from './model-settings';

const settings = (edit?: (s: ModelSettings) => void) => settingsWith(edit, 'deepseek-chat');

describe('cliCommands', () => {
	it('names the key variables and never writes a key', () => {
		const s = settings((s) => {
			Object.assign(s.defaults, {
				preset: 'deepseek',
				baseURL: 'https://api.deepseek.com/v1',
				apiKey: 'sk-live-abcdef'
			});
			Object.assign(s.roles.judge, {
				useDefaultBaseURL: false,
				baseURL: 'https://openrouter.ai/api/v1',
				preset: 'openrouter',
				useDefaultKey: false,
				apiKey: 'sk-or-judge-key',
				model: 'deepseek/deepseek-r1'
			});
		});
		const { env, commands, text } = cliCommands(s, {
			runId: 'run1',
			datasetPath: 'data/lexpilot.json',
			stages: ['gen'],
			limit: 3
		});
		expect(text).not.toContain('sk-live-abcdef');
		expect(text).not.toContain('sk-or-judge-key');
		expect(env).toEqual([
			'export OPENAI_BASE_URL=https://api.deepseek.com/v1',
			`export OPENAI_API_KEY='${KEY_PLACEHOLDER}'`,
			'export LEXPILOT_JUDGE_BASE_URL=https://openrouter.ai/api/v1',
			`export LEXPILOT_JUDGE_API_KEY='${KEY_PLACEHOLDER}'`
		]);
		expect(commands).toEqual([
			'npm run lexpilot -- gen --dataset data/lexpilot.json --run-id run1 --model deepseek-chat --judge-model deepseek/deepseek-r1 --limit 3'
		]);
	});

	it('writes no key line for a local server without a key, and no URL line for OpenAI', () => {
		const local = settings((s) =>
			Object.assign(s.defaults, { preset: 'ollama', baseURL: 'http://localhost:11434/v1' })
		);
		expect(cliCommands(local).env).toEqual(['export OPENAI_BASE_URL=http://localhost:11434/v1']);
		expect(cliCommands(settings()).env).toEqual([`export OPENAI_API_KEY='${KEY_PLACEHOLDER}'`]);
	});

	it('passes changed settings and concurrency as flags, defaults not at all', () => {
		const s = settings((s) => {
			s.generation.temperature = 0.2;
			s.generation.max_tokens = 4096;
			s.concurrency = 8;
		});
		const [command] = cliCommands(s).commands;
		expect(command).toContain('--temperature 0.2 --max-tokens 4096 --concurrency 8');
		expect(command).not.toContain('--judge-temperature');
		expect(command).not.toContain('--retries');
	});

	it('uses --simulated and no endpoint for the simulated provider', () => {
		const { env, commands } = cliCommands(settings((s) => (s.mode = 'simulated')));
		expect(env).toEqual([]);
		expect(commands[0]).toBe(
			'npm run lexpilot -- gen --dataset lexpilot.json --run-id run1 --simulated'
		);
	});
});

describe('cliStageCommands', () => {
	it.each([
		[['gen'], ['gen']],
		[['dcg'], ['dcg']],
		[['ljp-direct', 'ljp-gold', 'ljp-interaction', 'dcg', 'gen'], ['run']],
		[['gen', 'dcg', 'ljp-direct', 'ljp-gold', 'ljp-interaction'], ['run']],
		[['gen', 'ljp-direct', 'ljp-gold', 'ljp-interaction'], ['run --stages gen,ljp']],
		[['ljp-direct', 'ljp-gold'], ['run --stages ljp-direct,ljp-gold']],
		// `run` refuses lca beside gen (gen labels its own a1 responses): one command a stage.
		[
			['gen', 'lca', 'dcg'],
			['gen', 'lca', 'dcg']
		],
		[['lca', 'dcg'], ['run --stages lca,dcg']]
	] as const)('%j → %j', (stages, want) => {
		expect(cliStageCommands(stages)).toEqual(want);
	});
});

describe('shellQuote', () => {
	it.each([
		['run1', 'run1'],
		['my data.json', `'my data.json'`],
		["it's", `'it'\\''s'`],
		['qwen2.5:7b', 'qwen2.5:7b']
	])('%s → %s', (value, want) => expect(shellQuote(value)).toBe(want));
});

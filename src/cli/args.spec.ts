import { describe, expect, it } from 'vitest';
import { thrownBy } from '../../tests/support/thrown';
import { UsageError } from '../lib/core/errors';
import { DEFAULT_SETTINGS } from '../lib/core/records';
import { numberFlag, parseGenerationArgs, type GenerationOptions } from './args';

const cwd = '/work/project';
const base = ['--dataset', 'data/lexpilot.json', '--run-id', 'run1'];

function parse(args: string[], env: Record<string, string | undefined> = {}): GenerationOptions {
	return parseGenerationArgs(args, { env, cwd });
}

describe('parseGenerationArgs: defaults', () => {
	it('fills every default and resolves paths against the working directory', () => {
		expect(parse([...base, '--model', 'gpt-x'])).toEqual({
			dataset: '/work/project/data/lexpilot.json',
			datasetChoice: expect.objectContaining({ from: 'flag', label: 'data/lexpilot.json' }),
			outputRoot: '/work/project/lexpilot-output',
			runId: 'run1',
			limit: null,
			settings: DEFAULT_SETTINGS,
			concurrency: 4,
			roles: {
				evaluated: { baseURL: 'https://api.openai.com/v1', apiKey: '', model: 'gpt-x' },
				user: { baseURL: 'https://api.openai.com/v1', apiKey: '', model: 'DeepSeek-V4.1-Flash' },
				judge: { baseURL: 'https://api.openai.com/v1', apiKey: '', model: 'DeepSeek-R1' }
			},
			historyFields: {},
			categoriesPath: null
		});
	});

	it('reads every flag', () => {
		const o = parse([
			...base,
			'--model',
			'm',
			'--user-model',
			'u',
			'--judge-model',
			'j',
			'--output-root',
			'/out',
			'--limit',
			'2',
			'--temperature',
			'0',
			'--judge-temperature',
			'0.3',
			'--max-tokens',
			'1024',
			'--timeout',
			'30.5',
			'--retries',
			'0',
			'--concurrency',
			'8',
			'--complete-field',
			'full',
			'--underspecified-field',
			'partial',
			'--categories',
			'map.json'
		]);
		expect(o).toMatchObject({
			outputRoot: '/out',
			limit: 2,
			settings: {
				temperature: 0,
				judge_temperature: 0.3,
				max_tokens: 1024,
				timeout_s: 30.5,
				retries: 0
			},
			concurrency: 8,
			historyFields: { complete: 'full', underspecified: 'partial' },
			categoriesPath: '/work/project/map.json'
		});
		expect([o.roles.evaluated.model, o.roles.user.model, o.roles.judge.model]).toEqual([
			'm',
			'u',
			'j'
		]);
	});
});

describe('parseGenerationArgs: flags, environment and fallbacks', () => {
	const env = {
		OPENAI_BASE_URL: 'https://shared.example/v1/',
		OPENAI_API_KEY: 'sk-shared',
		LEXPILOT_MODEL: 'env-eval',
		LEXPILOT_USER_MODEL: 'env-user',
		LEXPILOT_JUDGE_MODEL: 'env-judge'
	};
	it.each([
		{
			name: 'environment models when no flag is given',
			args: base,
			env,
			want: { evaluated: 'env-eval', user: 'env-user', judge: 'env-judge' }
		},
		{
			name: 'flags beat the environment',
			args: [...base, '--model', 'flag-eval', '--judge-model', 'flag-judge'],
			env,
			want: { evaluated: 'flag-eval', user: 'env-user', judge: 'flag-judge' }
		},
		{
			name: 'an empty variable counts as unset',
			args: [...base, '--model', 'm'],
			env: { LEXPILOT_USER_MODEL: '', LEXPILOT_JUDGE_MODEL: '  ' },
			want: { evaluated: 'm', user: 'DeepSeek-V4.1-Flash', judge: 'DeepSeek-R1' }
		}
	])('models: $name', ({ args, env, want }) => {
		const { roles } = parse(args, env);
		expect({
			evaluated: roles.evaluated.model,
			user: roles.user.model,
			judge: roles.judge.model
		}).toEqual(want);
	});

	it('gives each role its own endpoint, falling back to OPENAI_* (trailing slash dropped)', () => {
		const { roles } = parse([...base, '--model', 'm'], {
			...env,
			LEXPILOT_EVAL_BASE_URL: 'http://localhost:8000/v1',
			LEXPILOT_EVAL_API_KEY: 'sk-eval',
			LEXPILOT_JUDGE_API_KEY: 'sk-judge'
		});
		expect(roles.evaluated).toMatchObject({
			baseURL: 'http://localhost:8000/v1',
			apiKey: 'sk-eval'
		});
		expect(roles.user).toMatchObject({ baseURL: 'https://shared.example/v1', apiKey: 'sk-shared' });
		expect(roles.judge).toMatchObject({ baseURL: 'https://shared.example/v1', apiKey: 'sk-judge' });
	});
});

describe('parseGenerationArgs: the dataset file', () => {
	const rest = ['--run-id', 'run1', '--model', 'm'];
	it('defaults to LexPilot_release_multiturn.json in the working directory', () => {
		const o = parse(rest);
		expect(o.dataset).toBe('/work/project/LexPilot_release_multiturn.json');
		expect(o.datasetChoice.from).toBe('default');
	});

	it('takes LEXPILOT_DATASET, relative to the working directory; --dataset beats it', () => {
		expect(parse(rest, { LEXPILOT_DATASET: '../data/x.json' }).dataset).toBe('/work/data/x.json');
		expect(parse(rest, { LEXPILOT_DATASET: '  ' }).datasetChoice.from).toBe('default');
		expect(parse([...rest, '--dataset', 'y.json'], { LEXPILOT_DATASET: 'x.json' }).dataset).toBe(
			'/work/project/y.json'
		);
	});
});

describe('parseGenerationArgs: usage errors', () => {
	const modelled = (...more: string[]) => [...base, '--model', 'm', ...more];
	const named = (runId: string) => ['--dataset', 'd.json', '--run-id', runId, '--model', 'm'];
	const bad = (message: string, args: string[], env?: Record<string, string>) => ({
		args,
		env,
		message
	});
	it.each([
		bad('no run id: pass --run-id NAME, e.g. --run-id run1', [
			'--dataset',
			'd.json',
			'--model',
			'm'
		]),
		bad('no evaluated model: pass --model MODEL_ID or set LEXPILOT_MODEL', [...base]),
		bad('--run-id "my run" cannot be used as a folder name', named('my run')),
		bad('--run-id "../up" cannot be used as a folder name', named('../up')),
		bad('--model needs a value', [...base, '--model', '']),
		bad('--limit must be a whole number from 1 to 1000000, got 0', modelled('--limit', '0')),
		bad('--limit must be a whole number from 1 to 1000000, got "2.5"', modelled('--limit', '2.5')),
		bad('--temperature must be a number from 0 to 2, got "hot"', modelled('--temperature', 'hot')),
		bad('--temperature must be a number from 0 to 2, got 2.5', modelled('--temperature', '2.5')),
		bad(
			'--judge-temperature must be a number from 0 to 2, got -0.1',
			modelled('--judge-temperature=-0.1')
		),
		bad(
			'--max-tokens must be a whole number from 1 to 262144, got "1e4"',
			modelled('--max-tokens', '1e4')
		),
		bad('--timeout must be a number above 0 and at most 86400, got 0', modelled('--timeout', '0')),
		bad(
			'--timeout must be a number above 0 and at most 86400, got 3000000',
			modelled('--timeout', '3000000')
		),
		bad(
			'--max-tokens must be a whole number from 1 to 262144, got 262145',
			modelled('--max-tokens', '262145')
		),
		bad(
			'--limit must be a whole number from 1 to 1000000, got 1000001',
			modelled('--limit', '1000001')
		),
		bad('--retries must be a whole number from 0 to 20, got -1', modelled('--retries=-1')),
		bad('--concurrency must be a whole number from 1 to 64, got 0', modelled('--concurrency', '0')),
		bad('OPENAI_BASE_URL is not a URL: "api.example.com"', modelled(), {
			OPENAI_BASE_URL: 'api.example.com'
		}),
		bad('LEXPILOT_JUDGE_BASE_URL must be an http(s) URL', modelled(), {
			LEXPILOT_JUDGE_BASE_URL: 'ftp://x/v1'
		})
	])('$message', ({ args, env, message }) => {
		expect(thrownBy(() => parse(args, env), UsageError).message).toContain(message);
	});

	it('leaves unknown flags and positionals to util.parseArgs (exit 2 through the dispatcher)', () => {
		expect(() => parse([...base, '--model', 'm', '--modle', 'x'])).toThrow(
			expect.objectContaining({ code: 'ERR_PARSE_ARGS_UNKNOWN_OPTION' })
		);
		expect(() => parse([...base, '--model', 'm', 'extra'])).toThrow(
			expect.objectContaining({ code: 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL' })
		);
	});
});

describe('numberFlag', () => {
	it.each([
		['3', 'retries', 3],
		[' 0.25 ', 'temperature', 0.25],
		['.5', 'timeout_s', 0.5],
		['12', 'max_tokens', 12]
	] as const)('reads %j', (raw, setting, value) => {
		expect(numberFlag('x', raw, 0, setting)).toBe(value);
	});

	it('returns the fallback when the flag is absent', () => {
		expect(numberFlag('x', undefined, 7, 'retries')).toBe(7);
	});

	it.each(['', '0x10', '1e3', '12abc', 'Infinity', 'NaN'])('refuses %j', (raw) => {
		expect(() => numberFlag('x', raw, 0, 'timeout_s')).toThrow(UsageError);
	});
});

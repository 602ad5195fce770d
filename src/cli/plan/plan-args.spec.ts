import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generationOptionsFrom } from '../args';
import { isPlan, planArgsFrom } from './plan-args';

const env = {
	OPENAI_BASE_URL: 'https://shared.example/v1',
	OPENAI_API_KEY: 'sk-shared-0123456789',
	QWEN_KEY: 'sk-qwen-0123456789'
};

async function planFile(plan: unknown): Promise<string> {
	const dir = await mkdtemp(join(tmpdir(), 'lexpilot-plan-args-'));
	const path = join(dir, 'plan.json');
	await writeFile(path, JSON.stringify(plan));
	return path;
}

describe('run plan arguments', () => {
	it('one --model and no --repetitions is no plan', () => {
		expect(isPlan({ models: ['a'] })).toBe(false);
		expect(isPlan({ models: [] })).toBe(false);
		expect(isPlan({ models: ['a', 'b'] })).toBe(true);
		expect(isPlan({ models: ['a'], repetitions: '1' })).toBe(true);
		expect(isPlan({ models: [], plan: 'p.json' })).toBe(true);
	});

	it('expands models × repetitions into run ids prefix1..R, model by model', async () => {
		const plan = await planArgsFrom(
			{ 'run-id': 'run' },
			{ models: ['a', 'b'], repetitions: '2' },
			{ env, cwd: '/tmp' },
			generationOptionsFrom
		);
		expect(plan.runs.map((r) => `${r.models.evaluated}/${r.runId}`)).toEqual([
			'a/run1',
			'a/run2',
			'b/run1',
			'b/run2'
		]);
		expect(plan.runs[0].args.options.roles.evaluated).toMatchObject({
			baseURL: 'https://shared.example/v1',
			apiKey: 'sk-shared-0123456789'
		});
	});

	it('a plan file model on its own server gets only its named key; flags beat the file', async () => {
		const path = await planFile({
			run_id: 'file-run',
			repetitions: 3,
			models: [
				'a',
				{ model: 'qwen', base_url: 'http://gpu.example/v1', api_key_env: 'QWEN_KEY' },
				{ model: 'local', base_url: 'http://localhost:8080/v1' }
			],
			user: { model: 'file-user', base_url: 'https://user.example/v1' }
		});
		const plan = await planArgsFrom(
			{ 'run-id': 'flag', 'user-model': 'flag-user' },
			{ models: [], plan: path, repetitions: '2' },
			{ env, cwd: '/tmp' },
			generationOptionsFrom
		);
		expect(plan.runs.map((r) => r.runId)).toEqual([
			'flag1',
			'flag2',
			'flag1',
			'flag2',
			'flag1',
			'flag2'
		]);
		const [a, qwen, local] = [0, 2, 4].map((i) => plan.runs[i].args);
		expect(qwen.options.roles.evaluated).toEqual({
			baseURL: 'http://gpu.example/v1',
			apiKey: 'sk-qwen-0123456789',
			model: 'qwen'
		});
		expect(local.options.roles.evaluated.apiKey).toBe('');
		expect(a.options.roles.evaluated.apiKey).toBe('sk-shared-0123456789');
		expect(a.options.roles.user).toEqual({
			baseURL: 'https://user.example/v1',
			apiKey: '',
			model: 'flag-user'
		});
		expect(qwen.endpoints).toEqual({
			evaluated: 'http://gpu.example/v1',
			user: 'https://user.example/v1',
			judge: 'https://shared.example/v1'
		});
		// Every key of the plan is hidden from every run.
		expect(new Set(a.keys)).toEqual(new Set(['sk-shared-0123456789', 'sk-qwen-0123456789']));
	});

	it('refuses --model with --plan', async () => {
		await expect(
			planArgsFrom(
				{},
				{ models: ['a'], plan: 'p.json' },
				{ env, cwd: '/tmp' },
				generationOptionsFrom
			)
		).rejects.toThrow('--model and --plan');
	});
});

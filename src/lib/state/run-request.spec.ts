import { describe, expect, it } from 'vitest';
import { buildManifest } from '$lib/core/engine';
import { DEFAULT_PROMPT_PACK, promptsSha256 } from '$lib/core/prompts';
import type { Manifest } from '$lib/core/records';
import { SETTING_LIMITS } from '$lib/core/run-config';
import { makeDataset } from '../../../tests/fixtures/engine/cases';
import { defaultModelSettings, type ModelSettings } from './model-settings';
import type { RunPlan } from '$lib/core/control/run-plans';
import {
	checkResume,
	keysForManifest,
	newRunRequest,
	orderStages,
	resumeRequest,
	startProblems,
	type ClientFactory,
	type ClientSpec,
	type RunSources
} from './run-request';

const dataset = makeDataset(5);

function settings(edit: (s: ModelSettings) => void = () => {}): ModelSettings {
	const s = defaultModelSettings();
	s.defaults.baseURL = 'https://api.deepseek.com/v1';
	s.defaults.apiKey = 'sk-default';
	s.roles.evaluated.model = 'deepseek-chat';
	edit(s);
	return s;
}

function sources(edit?: (s: ModelSettings) => void): RunSources {
	return {
		dataset,
		datasetName: 'cases.json',
		settings: settings(edit),
		pack: DEFAULT_PROMPT_PACK
	};
}

/** Records what the run asked its client to be. */
function spyFactory() {
	const specs: ClientSpec[] = [];
	const factory: ClientFactory = (spec) => {
		specs.push(spec);
		return () => {
			throw new Error('not called in these tests');
		};
	};
	return { specs, factory };
}

const plan: RunPlan = {
	runId: 'run1',
	modelDir: 'x',
	stages: ['ljp-gold', 'gen'],
	concurrency: 2,
	datasetName: 'cases.json',
	status: 'running',
	error: null,
	updatedAt: '2025-01-01T00:00:00.000Z'
};

async function manifest(edit: Partial<Manifest> = {}): Promise<Manifest> {
	const base = await buildManifest({
		runId: 'run1',
		modelDir: 'deepseek-chat-12345678',
		dataset,
		selected: dataset.cases.slice(0, 3),
		concurrency: 4,
		pack: DEFAULT_PROMPT_PACK,
		models: { evaluated: 'deepseek-chat', user: 'DeepSeek-V4.1-Flash', judge: 'DeepSeek-R1' },
		endpoints: {
			evaluated: 'https://api.deepseek.com/v1',
			user: 'https://api.deepseek.com/v1/',
			judge: 'https://openrouter.ai/api/v1'
		},
		settings: {
			temperature: 0.5,
			judge_temperature: 0,
			max_tokens: 4096,
			timeout_s: 60,
			retries: 1
		},
		simulated: false
	});
	return { ...base, ...edit };
}

describe('startProblems', () => {
	const form = { runId: 'run1', limit: null, stages: ['gen'] as const };
	it.each([
		['nothing wrong', {}, sources(), []],
		['no dataset', {}, { ...sources(), dataset: null }, ['Load a valid dataset']],
		[
			'no evaluated model',
			{},
			sources((s) => (s.roles.evaluated.model = '')),
			['Models page: Evaluated model']
		],
		['an unsafe run id', { runId: '../x' }, sources(), ['Run id "../x"']],
		['no run id', { runId: '' }, sources(), ['Enter a run id']],
		['a Windows device name as run id', { runId: 'CON' }, sources(), ['Run id "CON" is a device']],
		[
			'a device name with an extension',
			{ runId: 'nul.txt' },
			sources(),
			['Run id "nul.txt" is a device']
		],
		['a device name in any case', { runId: 'Lpt9' }, sources(), ['Run id "Lpt9" is a device']],
		['a run id ending in a dot', { runId: 'run1.' }, sources(), ['Run id "run1." ends in a dot']],
		['a zero limit', { limit: 0 }, sources(), ['Limit:']],
		['a fractional limit', { limit: 2.5 }, sources(), ['Limit:']],
		['no stage', { stages: [] }, sources(), ['Choose at least one stage']],
		[
			'an endpoint on a port the browser refuses, said once for the roles sharing it',
			{},
			sources((s) => (s.defaults.baseURL = 'http://127.0.0.1:9/v1')),
			['Models page: the browser itself refuses port 9 of http://127.0.0.1:9/v1']
		],
		[
			'a port the browser refuses, in simulated mode (nothing is sent)',
			{},
			sources((s) => {
				s.defaults.baseURL = 'http://127.0.0.1:6000/v1';
				s.mode = 'simulated';
			}),
			[]
		]
	] as const)('%s', (_name, formEdit, src, starts) => {
		const problems = startProblems(src, { ...form, ...formEdit });
		expect(problems).toHaveLength(starts.length);
		starts.forEach((s, i) => expect(problems[i]).toContain(s));
	});
});

describe('newRunRequest', () => {
	it('takes models, base URLs and settings from the Models page, keys only for the client', () => {
		const { specs, factory } = spyFactory();
		const req = newRunRequest(
			sources((s) => (s.generation.temperature = 0.2)),
			{ runId: 'run1', limit: 2, stages: ['ljp-gold', 'gen'] },
			factory
		);
		expect(req.stages).toEqual(['gen', 'ljp-gold']);
		expect(req.models).toEqual({
			evaluated: 'deepseek-chat',
			user: 'DeepSeek-V4.1-Flash',
			judge: 'DeepSeek-R1'
		});
		expect(Object.values(req.endpoints)).toEqual(Array(3).fill('https://api.deepseek.com/v1'));
		expect(req.settings.temperature).toBe(0.2);
		expect(req.keys).toEqual(['sk-default']);
		// What the run records (manifest inputs) holds no key; only the client gets it.
		expect(JSON.stringify([req.models, req.endpoints, req.settings])).not.toContain('sk-default');
		expect(specs[0].endpoints.judge.apiKey).toBe('sk-default');
		expect(specs[0].simulated).toBe(false);
	});

	it('asks for the simulated client, with no key, in simulated mode', () => {
		const { specs, factory } = spyFactory();
		const req = newRunRequest(
			sources((s) => (s.mode = 'simulated')),
			{ runId: 'demo', limit: null, stages: ['dcg'] },
			factory
		);
		expect(specs[0].simulated).toBe(true);
		expect(req.keys).toEqual([]);
		expect(req.models.evaluated).toBe('simulated');
	});

	it('refuses to build a request that cannot start', () => {
		expect(() =>
			newRunRequest(sources(), { runId: '', limit: null, stages: ['gen'] }, spyFactory().factory)
		).toThrow(/run id/);
	});
});

describe('resume', () => {
	it('continues with the manifest’s models, endpoints, settings and selected cases', async () => {
		const m = await manifest();
		const { specs, factory } = spyFactory();
		const src = sources((s) => {
			Object.assign(s.roles.judge, {
				useDefaultBaseURL: false,
				baseURL: 'https://openrouter.ai/api/v1',
				useDefaultKey: false,
				apiKey: 'sk-or-judge',
				model: 'something/else'
			});
			// The page's result-affecting settings are not the run's: the manifest's win.
			Object.assign(s.generation, { temperature: 1.2, judge_temperature: 0.9, max_tokens: 64 });
		});
		const req = resumeRequest(src, m, plan, factory);
		expect(req.models).toEqual(m.models);
		expect(req.endpoints).toEqual(m.endpoints);
		const { temperature, judge_temperature, max_tokens } = m.settings;
		expect(req.settings).toMatchObject({ temperature, judge_temperature, max_tokens });
		expect(req.limit).toBe(3);
		expect(req.stages).toEqual(['gen', 'ljp-gold']);
		// Keys come from the page, matched by base URL (a trailing slash does not matter).
		expect(specs[0].endpoints.user.apiKey).toBe('sk-default');
		expect(specs[0].endpoints.judge).toEqual({
			baseURL: 'https://openrouter.ai/api/v1',
			apiKey: 'sk-or-judge',
			model: 'DeepSeek-R1'
		});
		expect([...req.keys].sort()).toEqual(['sk-default', 'sk-or-judge']);
	});

	it('takes timeout, retries and concurrency from the Models page (PROTOCOL.md §6: more patience)', async () => {
		const m = await manifest();
		const { specs, factory } = spyFactory();
		const src = sources((s) => {
			Object.assign(s.generation, { timeout_s: 600, retries: 12 });
			s.concurrency = 1;
		});
		expect(checkResume(src, m, plan, await promptsSha256(DEFAULT_PROMPT_PACK)).problems).toEqual(
			[]
		);
		const req = resumeRequest(src, m, plan, factory);
		expect(req.settings).toEqual({ ...m.settings, timeout_s: 600, retries: 12 });
		expect(req.concurrency).toBe(1);
		expect(specs[0].settings).toEqual(req.settings);
		expect(specs[0].concurrency).toBe(1);
	});

	it('refuses to resume with an operational setting out of its range, and only those', async () => {
		const m = await manifest();
		const src = sources((s) => {
			s.generation.retries = SETTING_LIMITS.retries.max + 1;
			s.generation.temperature = 99; // not used on resume: the manifest's is
		});
		const check = checkResume(src, m, plan, await promptsSha256(DEFAULT_PROMPT_PACK));
		expect(check.problems).toEqual([
			`Models page: Retries must be a whole number from 0 to ${SETTING_LIMITS.retries.max}.`
		]);
	});

	it('finds no key for an endpoint the Models page no longer points at, and says which role', async () => {
		const m = await manifest();
		expect(keysForManifest(settings(), m)).toEqual({
			evaluated: 'sk-default',
			user: 'sk-default',
			judge: ''
		});
		const check = checkResume(sources(), m, plan, await promptsSha256(DEFAULT_PROMPT_PACK));
		expect(check).toEqual({ problems: [], missingKeys: ['judge'] });
	});

	it.each([
		[
			'another dataset',
			{ dataset: { ...dataset, sha256: 'b'.repeat(64) } },
			null,
			'not the one this run used'
		],
		['no dataset', { dataset: null }, null, 'Load the dataset this run used (cases.json)'],
		['another prompt pack', {}, 'c'.repeat(64), 'different prompt pack']
	] as const)('refuses to resume with %s', async (_name, edit, packHash, message) => {
		const m = await manifest();
		const check = checkResume(
			{ ...sources(), ...edit },
			m,
			plan,
			packHash ?? (await promptsSha256(DEFAULT_PROMPT_PACK))
		);
		expect(check.problems).toHaveLength(1);
		expect(check.problems[0]).toContain(message);
	});

	it('needs no key for a simulated run', async () => {
		const m = await manifest({ simulated: true });
		expect(
			checkResume(
				sources((s) => (s.defaults.apiKey = '')),
				m,
				plan,
				null
			).missingKeys
		).toEqual([]);
	});
});

describe('orderStages', () => {
	it('puts stages in protocol order and drops repeats', () => {
		expect(orderStages(['ljp-interaction', 'dcg', 'gen', 'dcg'])).toEqual([
			'gen',
			'dcg',
			'ljp-interaction'
		]);
	});
});

/**
 * The commands the Models page offers for the terminal (`src/lib/state/cli-command.ts`) must
 * start the run the page would: pasted into a POSIX shell and parsed by the CLI's own parser
 * (`parseStageArgs`, over `src/cli/args.ts`), they give the same models, base URLs per role,
 * generation settings, concurrency, limit and run id as the page's settings, and a key only as
 * the placeholder the user replaces.
 */
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseStages } from '../../../src/cli/commands/run';
import { parseStageArgs } from '../../../src/cli/commands/stage';
import { RUN_ALL_STAGES, type StageName } from '../../../src/lib/core/engine/types';
import { ROLES } from '../../../src/lib/core/records';
import { cliCommands, KEY_PLACEHOLDER, type CliRunInput } from '../../../src/lib/state/cli-command';
import {
	defaultModelSettings,
	runIdentity,
	settingsProblems,
	type ModelSettings
} from '../../../src/lib/state/model-settings';

const CWD = '/home/researcher/lexpilot';

interface Pasted {
	/** Each `npm run lexpilot -- NAME ARGS…` line as the shell split it: [NAME, ...ARGS]. */
	commands: string[][];
	/** The variables the `export` lines set. */
	env: Record<string, string>;
}

/**
 * Runs the page's text in `sh` with a clean environment, `npm` replaced by a function that
 * prints its arguments, so quoting is undone by a real shell and not by a copy of the quoting
 * rules.
 */
function pasteIntoShell(text: string): Pasted {
	const script = [
		// \036 starts a command, \0 ends each argument; \035 starts the environment.
		`npm() { [ "$1 $2 $3" = 'run lexpilot --' ] || exit 9; shift 3; printf '\\036'; printf '%s\\0' "$@"; }`,
		text,
		`printf '\\035'; env -0`
	].join('\n');
	const out = execFileSync('sh', ['-c', script], {
		env: { PATH: process.env.PATH },
		encoding: 'utf8'
	});
	const [calls, envText] = out.split('\x1d');
	const commands = calls
		.split('\x1e')
		.slice(1)
		.map((c) => c.split('\0').slice(0, -1));
	const env = Object.fromEntries(
		envText
			.split('\0')
			.filter((line) => /^(OPENAI|LEXPILOT)_/.test(line))
			.map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)])
	);
	return { commands, env };
}

function settings(edit: (s: ModelSettings) => void): ModelSettings {
	const s = defaultModelSettings();
	s.roles.evaluated.model = 'gpt-4o-mini';
	edit(s);
	return s;
}

const CASES: Array<{
	name: string;
	settings: ModelSettings;
	run: CliRunInput;
	/** The CLI commands expected, in order. */
	names: string[];
	/** For `run`: the stages its `--stages` names (every stage without it). */
	stages?: StageName[];
	/** Roles whose key the shell should hold as the placeholder; the others get none. */
	keyed: Array<(typeof ROLES)[number]>;
}> = [
	{
		name: 'the defaults: OpenAI for every role, the paper’s user and judge models',
		settings: settings(() => {}),
		run: {},
		names: ['gen'],
		keyed: ['evaluated', 'user', 'judge']
	},
	{
		name: 'DeepSeek by default, the judge on OpenRouter with its own key, the user model on a local server',
		settings: settings((s) => {
			Object.assign(s.defaults, {
				preset: 'deepseek',
				baseURL: 'https://api.deepseek.com/v1',
				apiKey: 'sk-live-default'
			});
			s.roles.evaluated.model = 'deepseek-chat';
			Object.assign(s.roles.judge, {
				useDefaultBaseURL: false,
				preset: 'openrouter',
				baseURL: 'https://openrouter.ai/api/v1',
				useDefaultKey: false,
				apiKey: 'sk-or-judge',
				model: 'deepseek/deepseek-r1'
			});
			Object.assign(s.roles.user, {
				useDefaultBaseURL: false,
				preset: 'ollama',
				baseURL: 'http://localhost:11434/v1',
				model: 'qwen2.5:7b'
			});
			Object.assign(s.generation, {
				temperature: 0.2,
				judge_temperature: 0.7,
				max_tokens: 4096,
				timeout_s: 0.5,
				retries: 0
			});
			s.concurrency = 16;
		}),
		run: {
			runId: 'ds-judge_or.2',
			datasetPath: 'data/my lexpilot.json',
			stages: ['gen', 'dcg', 'ljp-direct', 'ljp-gold', 'ljp-interaction'],
			limit: 12
		},
		names: ['run'],
		keyed: ['evaluated', 'user', 'judge']
	},
	{
		name: 'a local server for every role, no key, model ids that need quoting',
		settings: settings((s) => {
			Object.assign(s.defaults, { preset: 'ollama', baseURL: 'http://127.0.0.1:11434/v1' });
			s.roles.evaluated.model = "lab's model v2";
			s.roles.user.model = 'llama3.1:8b';
			s.roles.judge.model = 'qwen2.5:72b-instruct';
			s.generation.temperature = 1;
			s.concurrency = 1;
		}),
		run: { stages: ['ljp-direct', 'ljp-gold'], limit: 1 },
		names: ['run'],
		stages: ['ljp-direct', 'ljp-gold'],
		keyed: []
	},
	{
		name: 'every role with its own base URL and key, none on the default',
		settings: settings((s) => {
			for (const [i, role] of ROLES.entries()) {
				Object.assign(s.roles[role], {
					useDefaultBaseURL: false,
					preset: 'custom',
					baseURL: `https://host-${i}.example/v1`,
					useDefaultKey: false,
					apiKey: `sk-${role}`
				});
			}
			s.generation.retries = 7;
		}),
		run: { stages: ['dcg'] },
		names: ['dcg'],
		keyed: ['evaluated', 'user', 'judge']
	},
	{
		name: 'the simulated provider (user and judge ids typed earlier stay out), with changed settings',
		settings: settings((s) => {
			s.mode = 'simulated';
			s.roles.user.model = 'my-user-model';
			s.roles.judge.model = 'my-judge';
			s.generation.judge_temperature = 0.3;
			s.concurrency = 2;
		}),
		run: { runId: 'demo', stages: ['gen', 'ljp-interaction'] },
		names: ['run'],
		stages: ['gen', 'ljp-interaction'],
		keyed: []
	}
];

describe('the Models page’s CLI commands, pasted into sh and parsed by the CLI', () => {
	it.each(CASES.map((c) => [c.name, c] as const))('%s', (_name, c) => {
		// Only settings the page would let a run start with.
		expect(settingsProblems(c.settings)).toEqual([]);
		const { text } = cliCommands(c.settings, c.run);
		const pasted = pasteIntoShell(text);
		expect(pasted.commands.map(([name]) => name)).toEqual(c.names);

		const identity = runIdentity(c.settings);
		for (const [name, ...given] of pasted.commands) {
			// `run` takes the stage commands' options plus --stages.
			const at = given.indexOf('--stages');
			const args = at < 0 ? given : given.filter((_, i) => i !== at && i !== at + 1);
			if (name === 'run') {
				expect(parseStages(at < 0 ? undefined : given[at + 1])).toEqual(c.stages ?? RUN_ALL_STAGES);
			} else expect(at).toBe(-1);
			const parsed = parseStageArgs(args, { env: pasted.env, cwd: CWD });
			expect(parsed.simulated).toBe(identity.simulated);
			expect(parsed.models).toEqual(identity.models);
			expect(parsed.endpoints).toEqual(identity.endpoints);
			expect(parsed.options.settings).toEqual(c.settings.generation);
			expect(parsed.options.concurrency).toBe(c.settings.concurrency);
			expect(parsed.options.limit).toBe(c.run.limit ?? null);
			expect(parsed.options.runId).toBe(c.run.runId ?? 'run1');
			expect(parsed.options.dataset).toBe(resolve(CWD, c.run.datasetPath ?? 'lexpilot.json'));
			for (const role of ROLES) {
				const key = parsed.options.roles[role].apiKey;
				expect(key, `${role} key`).toBe(
					!identity.simulated && c.keyed.includes(role) ? KEY_PLACEHOLDER : ''
				);
			}
		}
		// A key the user typed on the page is in no line.
		for (const role of ROLES) {
			const typed = c.settings.roles[role].apiKey || c.settings.defaults.apiKey;
			if (typed) expect(text).not.toContain(typed);
		}
	});

	it('covers every stage command the page can ask for', () => {
		const all: StageName[] = ['gen', 'dcg', 'ljp-direct', 'ljp-gold', 'ljp-interaction'];
		const pasted = pasteIntoShell(
			cliCommands(
				settings(() => {}),
				{ stages: all }
			).text
		);
		expect(pasted.commands).toEqual([expect.arrayContaining(['run'])]);
		expect(pasted.commands[0]).not.toContain('--stages');
		const one = (stage: StageName) =>
			pasteIntoShell(
				cliCommands(
					settings(() => {}),
					{ stages: [stage] }
				).text
			).commands[0][0];
		expect(all.map(one)).toEqual(all);
	});
});

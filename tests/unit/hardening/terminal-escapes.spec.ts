/**
 * Issue 14, item 2: text from a dataset or a provider never drives the terminal. A case_number
 * carrying OSC 52 (write the clipboard) and a screen clear, or a provider's error body with
 * ESC, C1 and bidi controls, prints escaped (`\u001b]52;…`) through every command.
 */
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { escapeControl, escapeForTerminal } from '../../../src/lib/core/text/escape-control';
import { runCliInProcess } from '../../cli/run-cli';
import { startFakeOpenAI, type FakeOpenAI } from '../../fake-openai/server';
import { DATASET } from '../faults/harness';

const OSC52 = '\u001b]52;c;SGVsbG8=\u0007\u001b[2J';
/** Anything that acts on a terminal: C0 but line feed and tab, DEL, C1, bidi controls. */
// eslint-disable-next-line no-control-regex
const ACTIVE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

async function datasetWith(edit: (cases: Record<string, unknown>[]) => void): Promise<string> {
	const cases = JSON.parse(await readFile(DATASET, 'utf8')) as Record<string, unknown>[];
	edit(cases);
	const dir = await mkdtemp(join(tmpdir(), 'lexpilot-esc-'));
	const path = join(dir, 'dataset.json');
	await writeFile(path, JSON.stringify(cases));
	return path;
}

describe('escapeControl', () => {
	it('escapes C0, ESC, DEL, C1, bidi overrides and isolates, and lone surrogates', () => {
		expect(escapeControl(OSC52)).toBe('\\u001b]52;c;SGVsbG8=\\u0007\\u001b[2J');
		expect(escapeControl('a\u007fb\u009bc\u202ed\u2066e\u2069')).toBe(
			'a\\u007fb\\u009bc\\u202ed\\u2066e\\u2069'
		);
		expect(escapeControl('line\nbreak\ttab\r')).toBe('line\\u000abreak\\u0009tab\\u000d');
		expect(escapeControl('LONE-\ud800-X')).toBe('LONE-\\ud800-X');
		expect(escapeControl('LONE-\udc00-X')).toBe('LONE-\\udc00-X');
		// A valid pair, CJK and ordinary text pass unchanged.
		expect(escapeControl('案件 😀 ok')).toBe('案件 😀 ok');
	});

	it('keeps line feeds and tabs of whole blocks, and JSON stays the same JSON', () => {
		const value = { id: 'a\u009bb\u202e', n: ['x\u001by'] };
		const shown = escapeForTerminal(JSON.stringify(value, null, '\t'));
		expect(shown).not.toMatch(ACTIVE);
		expect(shown).toContain('\n\t"id": "a\\u009bb\\u202e"');
		expect(JSON.parse(shown)).toEqual(value);
		expect(escapeForTerminal('50%\r100%')).toBe('50%\\u000d100%');
	});
});

describe('the CLI prints text from files and providers escaped', () => {
	let server: FakeOpenAI;
	beforeAll(async () => {
		server = await startFakeOpenAI({
			handler: () => ({
				status: 401,
				body: {
					error: { message: `bad key\u001b[2J\u001b]52;c;ZXZpbA==\u0007\u009b31m\u202egnp.exe` }
				}
			})
		});
	});
	afterAll(() => server.close());

	it('validate: an OSC 52 case_number in a problem', async () => {
		const path = await datasetWith((cases) => {
			cases[0].case_number = OSC52;
			delete cases[0].plaintiff_type;
		});
		const r = await runCliInProcess(['validate', '--dataset', path]);
		expect(r.code).toBe(2);
		expect(r.stderr).not.toMatch(ACTIVE);
		expect(r.stderr).toContain(
			'case #0 (case_number \\u001b]52;c;SGVsbG8=\\u0007\\u001b[2J) plaintiff_type'
		);
	});

	it('validate: a duplicate id differing only in a bidi override, and a field name with ESC', async () => {
		const path = await datasetWith((cases) => {
			cases[0].case_number = 'A\u202eB';
			cases[1].case_number = 'A\u202eB';
			cases[2]['\u001b[8m'] = 1;
			cases[2].result_dict = { '\u001b[2Jclaim': 'maybe' };
		});
		const r = await runCliInProcess(['validate', '--dataset', path]);
		expect(r.code).toBe(2);
		expect(r.stderr).not.toMatch(ACTIVE);
		expect(r.stderr).toContain('case #1 (case_number A\\u202eB) case_number: duplicate');
		expect(r.stderr).toContain('"\\u001b[2Jclaim"');
	});

	it('gen --simulated and results: a model id and case numbers from the records', async () => {
		const path = await datasetWith((cases) => {
			cases[0].case_number = OSC52;
		});
		const root = await mkdtemp(join(tmpdir(), 'lexpilot-esc-out-'));
		const model = 'sim\u001b]52;c;eA==\u0007-model';
		const gen = await runCliInProcess([
			'gen',
			'--simulated',
			'--model',
			model,
			'--dataset',
			path,
			'--output-root',
			root,
			'--run-id',
			'esc'
		]);
		expect(gen.code, gen.stderr).toBe(0);
		expect(gen.stdout + gen.stderr).not.toMatch(ACTIVE);
		expect(gen.stdout).toContain('sim\\u001b]52;c;eA==\\u0007-model');
		for (const args of [[], ['--json'], ['--partial']]) {
			const r = await runCliInProcess(['results', '--output-root', root, ...args]);
			expect(r.stdout + r.stderr).not.toMatch(ACTIVE);
			expect(r.stdout).toContain('\\u001b]52;c;eA==\\u0007');
		}
		const json = await runCliInProcess(['results', '--output-root', root, '--json']);
		expect(JSON.stringify(JSON.parse(json.stdout))).toContain(JSON.stringify(model).slice(1, -1));
	});

	it('gen: a provider error body with ESC, C1 and bidi controls, for an OSC 52 case', async () => {
		const path = await datasetWith((cases) => {
			cases[0].case_number = OSC52;
		});
		const root = await mkdtemp(join(tmpdir(), 'lexpilot-esc-out-'));
		const r = await runCliInProcess(
			['gen', '--dataset', path, '--output-root', root, '--run-id', 'esc', '--limit', '1'],
			{
				env: {
					OPENAI_BASE_URL: server.baseURL,
					OPENAI_API_KEY: 'sk-esc-test-0123456789',
					LEXPILOT_MODEL: 'eval\u001b[31m-model'
				}
			}
		);
		expect(r.code).toBe(1);
		const all = r.stdout + r.stderr;
		expect(all).not.toMatch(ACTIVE);
		expect(r.stderr).toContain('\\u001b]52;c;SGVsbG8=\\u0007\\u001b[2J');
		expect(r.stderr).toContain(
			'bad key\\u001b[2J\\u001b]52;c;ZXZpbA==\\u0007\\u009b31m\\u202egnp.exe'
		);
		expect(r.stderr).toContain('eval\\u001b[31m-model');
	});
});

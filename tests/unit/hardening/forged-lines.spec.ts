/**
 * A value from a dataset, a record or a provider can never print a line of its own: a
 * case_number, a cause, a model id or a provider's message holding a line break, a carriage
 * return, ESC sequences or a bidi override is quoted escaped (`\u000a`) on the line that quotes
 * it, by every command, on stdout and stderr, in a run that stops and in one that finishes.
 */
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliInProcess, type CliResult } from '../../cli/run-cli';
import { startFakeOpenAI, type FakeOpenAI } from '../../fake-openai/server';
import { DATASET } from '../faults/harness';

/** A line break, then a line that reads like the CLI's own, a carriage return, ESC and RLO. */
const forge = (tag: string) => `X\nerror: forged ${tag}\r\u001b[2K\u202eok`;
/** Every control but the line feed (the CLI's own layout), C1 and the bidi controls. */
// eslint-disable-next-line no-control-regex
const ACTIVE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

/** No raw control character, and every forged text sits escaped inside the line quoting it. */
function expectNoForgedLine(r: CliResult): void {
	const all = r.stdout + r.stderr;
	expect(all).not.toMatch(ACTIVE);
	for (const line of all.split('\n')) {
		expect(line, all).not.toMatch(/^error: forged/);
		// `\u000a` in text, `\n` in JSON (or `\\u000a`: a note whose value the core escaped, then
		// written as JSON): either way the break is written out, not made.
		if (line.includes('error: forged')) expect(line).toMatch(/X\\{1,2}(u000a|n)error: forged/);
	}
}

async function hostileDataset(): Promise<string> {
	const cases = JSON.parse(await readFile(DATASET, 'utf8')) as Record<string, unknown>[];
	cases[0].case_number = forge('case');
	cases[0].cause_of_action = forge('cause');
	const dir = await mkdtemp(join(tmpdir(), 'lexpilot-forged-'));
	const path = join(dir, 'dataset.json');
	await writeFile(path, JSON.stringify(cases));
	return path;
}

describe('no forged output line', () => {
	let server: FakeOpenAI;
	let dataset: string;
	beforeAll(async () => {
		dataset = await hostileDataset();
		server = await startFakeOpenAI({
			handler: () => ({ status: 401, body: { error: { message: forge('provider') } } })
		});
	});
	afterAll(() => server.close());

	for (const command of ['gen', 'run']) {
		it(`${command} stopping on a 401: the stop message quotes case, model and provider escaped`, async () => {
			const root = await mkdtemp(join(tmpdir(), 'lexpilot-forged-out-'));
			const r = await runCliInProcess(
				[command, '--dataset', dataset, '--output-root', root, '--run-id', 'f', '--limit', '1'],
				{
					env: {
						OPENAI_BASE_URL: server.baseURL,
						OPENAI_API_KEY: 'sk-forged-0123456789',
						LEXPILOT_MODEL: forge('model')
					}
				}
			);
			expect(r.code, r.stderr).toBe(1);
			expect(r.stderr).toContain('stopped at case #0 (case_number X\\u000aerror: forged case');
			expect(r.stderr.match(/^error: /gm)).toHaveLength(1);
			expectNoForgedLine(r);
		});
	}

	it('gen --simulated, validate and results: summaries and tables quote the values escaped', async () => {
		const root = await mkdtemp(join(tmpdir(), 'lexpilot-forged-out-'));
		const gen = await runCliInProcess([
			'gen',
			'--simulated',
			'--model',
			forge('model'),
			'--dataset',
			dataset,
			'--output-root',
			root,
			'--run-id',
			's'
		]);
		expect(gen.code, gen.stderr).toBe(0);
		expect(gen.stdout).toContain('Started run s of X\\u000aerror: forged model');
		expectNoForgedLine(gen);
		const validate = await runCliInProcess(['validate', '--dataset', dataset]);
		expect(validate.code).toBe(0);
		expect(validate.stdout).toContain('X\\u000aerror: forged cause');
		expectNoForgedLine(validate);
		for (const args of [[], ['--partial']]) {
			const results = await runCliInProcess(['results', '--output-root', root, ...args]);
			expect(results.code, results.stderr).toBe(0);
			expect(results.stdout).toContain('X\\u000aerror: forged model');
			expectNoForgedLine(results);
		}
		const json = await runCliInProcess(['results', '--output-root', root, '--json']);
		expectNoForgedLine(json);
		expect(JSON.stringify(JSON.parse(json.stdout))).toContain(
			JSON.stringify(forge('model')).slice(1, -1)
		);
	});

	it('typed values quoted back in a refusal are escaped too', async () => {
		for (const args of [
			['gen', '--run-id', forge('run-id'), '--model', 'm', '--dataset', dataset],
			['gen', '--run-id', 'r', '--model', 'm', '--dataset', dataset, '--timeout', forge('flag')],
			['gen', `--${forge('option')}`],
			[forge('command')],
			['results', '--output-root', join(tmpdir(), forge('root'))]
		]) {
			const r = await runCliInProcess(args);
			expect(r.code).toBe(2);
			expect(r.stderr).toContain('X\\u000aerror: forged');
			expectNoForgedLine(r);
		}
	});
});

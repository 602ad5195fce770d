import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { runCliInProcess } from '../../../tests/cli/run-cli';

const root = process.cwd();

const run = (...args: string[]) => runCliInProcess(['validate', ...args], { cwd: root });

const sha256Of = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

describe('validate', () => {
	it('summarises the sample: counts, fields, sha256 of the bytes, classes', async () => {
		const { code, stdout, stderr } = await run('--dataset', 'static/sample/lexpilot-sample.json');
		expect(code).toBe(0);
		expect(stderr).toBe('');
		expect(stdout).toContain('static/sample/lexpilot-sample.json: valid LexPilot dataset');
		expect(stdout).toContain(`sha256          ${sha256Of('static/sample/lexpilot-sample.json')}`);
		expect(stdout).toMatch(/cases {11}14\n/);
		expect(stdout).toContain('histories       28');
		expect(stdout).toContain(
			'history fields  complete = complete_consultation, underspecified = underspecified_consultation'
		);
		expect(stdout).toMatch(/\n {2}合同纠纷 +4\n/);
		expect(stdout).toMatch(/\n {2}名誉权纠纷 +1 +人格权与其他民事纠纷\n/);
		expect(stdout).not.toContain('Warnings');
	});

	it('accepts a file with a BOM and CRLF line ends, hashing the bytes as they are', async () => {
		const file = 'tests/fixtures/datasets/bom-crlf.json';
		expect(readFileSync(file).subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
		const { code, stdout } = await run('--dataset', file);
		expect(code).toBe(0);
		expect(stdout).toContain(`sha256          ${sha256Of(file)}`);
		expect(stdout).toMatch(/cases {11}2\n/);
	});

	it('detects aliased history fields and says which it used', async () => {
		const { code, stdout } = await run('--dataset', 'tests/fixtures/datasets/aliased-fields.json');
		expect(code).toBe(0);
		expect(stdout).toContain(
			'history fields  complete = full_consultation, underspecified = incomplete_consultation'
		);
	});

	it('asks for --complete-field/--underspecified-field when names say nothing, and uses them', async () => {
		const file = 'tests/fixtures/datasets/unnamed-fields.json';
		const refused = await run('--dataset', file);
		expect(refused.code).toBe(2);
		expect(refused.stderr).toContain('fields holding message lists: dialogue_a, dialogue_b');
		expect(refused.stderr).toContain(
			'Map the history fields, e.g.: --complete-field dialogue_a --underspecified-field dialogue_b'
		);
		const mapped = await run(
			'--dataset',
			file,
			'--complete-field',
			'dialogue_a',
			'--underspecified-field',
			'dialogue_b'
		);
		expect(mapped.code).toBe(0);
		expect(mapped.stdout).toContain('complete = dialogue_a, underspecified = dialogue_b');
	});

	it('prints every problem of a broken file, one a line, and exits 2', async () => {
		const { code, stdout, stderr } = await run('--dataset', 'tests/fixtures/datasets/broken.json');
		expect(code).toBe(2);
		expect(stdout).toBe('');
		expect(stderr.trimEnd().split('\n')).toEqual([
			'tests/fixtures/datasets/broken.json is not a valid LexPilot dataset (7 problems):',
			'  case #1 (case_number FX-002) cause_of_action: is empty',
			'  case #1 (case_number FX-002) result_dict: claim 1 ("判令被告还款"): verdict "胜诉" is not one of 支持, 部分支持, 驳回',
			'  case #2 (case_number FX-001) case_number: duplicate: case #0 has the same case_number; case numbers must be unique',
			'  case #2 (case_number FX-001) focal_point: is an empty list; give at least one focal point',
			'  case #2 (case_number FX-001) underspecified history, message 1: expected role "assistant", got "user"',
			'  case #2 (case_number FX-001) underspecified history, message 2: expected role "assistant", got "user"',
			'  case #3: expected an object (one case), got string'
		]);
	});

	it('names the line and column of a JSON syntax error', async () => {
		const dir = mkdtempSync(join(tmpdir(), 'lexpilot-validate-'));
		const file = join(dir, 'cut.json');
		writeFileSync(file, '[\n  {"case_number": "A",\n');
		const { code, stderr } = await run('--dataset', file);
		expect(code).toBe(2);
		expect(stderr).toContain(
			`${file}, line 3, column 1: not valid JSON: expected a quoted key, found the end of the file`
		);
	});

	it('uses a category map file, and reports a broken one by name', async () => {
		const ok = await run(
			'--dataset',
			'static/sample/lexpilot-sample.json',
			'--categories',
			'static/sample/categories-example.json'
		);
		expect(ok.code).toBe(0);
		expect(ok.stdout).toContain('category map    static/sample/categories-example.json');
		expect(ok.stdout).toMatch(/\n {2}金钱债务 +3\n/);

		const bad = await run(
			'--dataset',
			'static/sample/lexpilot-sample.json',
			'--categories',
			'tests/fixtures/datasets/broken.json'
		);
		expect(bad.code).toBe(2);
		expect(bad.stderr).toMatch(/^error: .*broken\.json: category map: expected a JSON object/);
	});

	it.each([
		[
			['--dataset', 'no/such/file.json'],
			`error: dataset file no/such/file.json not found (check --dataset; looked for ${root}/no/such/file.json)`
		],
		[
			['--dataset', 'static/sample'],
			'error: dataset file static/sample is a folder; --dataset needs a file'
		],
		[
			[],
			'error: no dataset: looked for LexPilot_release_multiturn.json (the default) in ' +
				`${root} and it is not there. Pass --dataset FILE`
		],
		[['--dataset', 'x.json', '--limit', '2'], "error: Unknown option '--limit'"]
	])('refuses %j with exit 2 and a clear message', async (args, message) => {
		const { code, stderr } = await run(...args);
		expect(code).toBe(2);
		expect(stderr.trim()).toContain(message);
	});
});

describe('validate through the real entry point', () => {
	const exec = promisify(execFile);
	it('runs `npx lexpilot validate` (the bundled CLI) on the sample and on a broken file', async () => {
		const ok = await exec(
			process.execPath,
			['bin/lexpilot.js', 'validate', '--dataset', 'static/sample/lexpilot-sample.json'],
			{ cwd: root }
		);
		expect(ok.stdout).toContain('valid LexPilot dataset');

		const broken = await exec(
			process.execPath,
			['bin/lexpilot.js', 'validate', '--dataset', 'tests/fixtures/datasets/broken.json'],
			{ cwd: root }
		).then(
			() => {
				throw new Error('expected exit 2');
			},
			(e: { code: number; stderr: string }) => e
		);
		expect(broken.code).toBe(2);
		expect(broken.stderr).toContain('(7 problems)');
		expect(broken.stderr).not.toMatch(/\n\s+at /); // no stack trace
	}, 60_000);
});

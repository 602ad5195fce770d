import { mkdtempSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliInProcess } from '../../tests/cli/run-cli';
import { chooseDataset } from './dataset-path';

const SAMPLE = resolve(__dirname, '../../static/sample/lexpilot-sample.json');

const cli = (args: string[], cwd: string, env: Record<string, string> = {}) =>
	runCliInProcess(args, { cwd, env });

describe('chooseDataset', () => {
	it('says which file it looked for and how to pass another', () => {
		const byDefault = chooseDataset(undefined, undefined, '/home/r');
		expect(byDefault.path).toBe('/home/r/LexPilot_release_multiturn.json');
		expect(byDefault.notFound).toBe(
			'no dataset: looked for LexPilot_release_multiturn.json (the default) in /home/r and it is ' +
				'not there. Pass --dataset FILE (e.g. --dataset static/sample/lexpilot-sample.json, the ' +
				'synthetic sample) or set LEXPILOT_DATASET.'
		);
		expect(chooseDataset(undefined, 'd/x.json', '/home/r').notFound).toBe(
			'dataset file d/x.json, named by LEXPILOT_DATASET, not found (looked for /home/r/d/x.json). ' +
				'Point LEXPILOT_DATASET at the dataset file, or pass --dataset FILE.'
		);
		expect(chooseDataset('../x.json', 'ignored.json', '/home/r/sub').notFound).toBe(
			'dataset file ../x.json not found (check --dataset; looked for /home/r/x.json)'
		);
		expect(chooseDataset('/abs/x.json', undefined, '/home/r').notFound).toBe(
			'dataset file /abs/x.json not found (check --dataset)'
		);
	});
});

describe('the default dataset, as Python harness users expect', () => {
	it('validate and gen read LexPilot_release_multiturn.json from the working directory', async () => {
		const dir = mkdtempSync(join(tmpdir(), 'lexpilot-default-ds-'));
		copyFileSync(SAMPLE, join(dir, 'LexPilot_release_multiturn.json'));
		const checked = await cli(['validate'], dir);
		expect(checked.stderr).toBe('');
		expect(checked.stdout).toContain('LexPilot_release_multiturn.json: valid LexPilot dataset');
		const gen = await cli(['gen', '--simulated', '--run-id', 'r1', '--limit', '1'], dir);
		expect(gen.stderr).not.toContain('error');
		expect(gen.code).toBe(0);
	});

	it('LEXPILOT_DATASET names another file; a missing default exits 2 saying what it looked for', async () => {
		const dir = mkdtempSync(join(tmpdir(), 'lexpilot-env-ds-'));
		copyFileSync(SAMPLE, join(dir, 'mine.json'));
		const ok = await cli(['validate'], dir, { LEXPILOT_DATASET: 'mine.json' });
		expect(ok.stdout).toContain('mine.json: valid LexPilot dataset');
		const empty = mkdtempSync(join(tmpdir(), 'lexpilot-no-ds-'));
		for (const args of [['validate'], ['gen', '--simulated', '--run-id', 'r1']]) {
			const missing = await cli(args, empty);
			expect(missing.code).toBe(2);
			expect(missing.stderr).toBe(
				`error: no dataset: looked for LexPilot_release_multiturn.json (the default) in ${empty} ` +
					'and it is not there. Pass --dataset FILE (e.g. --dataset static/sample/lexpilot-sample.json, ' +
					'the synthetic sample) or set LEXPILOT_DATASET.\n'
			);
		}
	});
});

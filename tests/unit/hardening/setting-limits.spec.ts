/**
 * Absurd settings: `--timeout 3000000` (past 2^31 ms, where Node prints a raw
 * `TimeoutOverflowWarning` and every timer fires at once, so each call failed at once with "no
 * answer within 3000000 s") is refused before anything runs, in the CLI, on the Models page and
 * in settings stored by an older version, each saying the flag or field and its range.
 */
import { mkdtemp, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
	defaultModelSettings,
	settingsProblems,
	toStored
} from '../../../src/lib/state/model-settings';
import { readStoredModelSettings } from '../../../src/lib/state/stored-settings';
import { repairMessage } from '../../../src/lib/state/settings-repairs';
import { runArgs, runCliAsProcess } from '../../cli/run-cli';
import { DATASET } from '../faults/harness';

describe('a timeout past any sane wait', () => {
	it('the CLI refuses --timeout 3000000 with exit 2, naming flag and range, and no warning', async () => {
		const root = await mkdtemp(join(tmpdir(), 'lexpilot-limits-'));
		const r = await runCliAsProcess(
			runArgs('gen', { dataset: DATASET, root }, '--model', 'm', '--timeout', '3000000'),
			{ OPENAI_BASE_URL: 'http://127.0.0.1:9/v1', OPENAI_API_KEY: 'sk-limits-0123456789' }
		);
		expect(r.code).toBe(2);
		expect(r.stderr).toBe(
			'error: --timeout must be a number above 0 and at most 86400, got 3000000\n'
		);
		expect(r.stdout).toBe('');
		expect(await readdir(root)).toEqual([]);
	});

	it('the Models page form refuses it at its field, with the range', () => {
		const s = defaultModelSettings();
		s.roles.evaluated.model = 'm';
		s.generation.timeout_s = 3_000_000;
		expect(settingsProblems(s)).toEqual([
			{
				field: 'generation.timeout_s',
				message: 'Timeout must be a number above 0 and at most 86400.'
			}
		]);
		s.generation.timeout_s = 86_400;
		expect(settingsProblems(s)).toEqual([]);
	});

	it('stored settings holding it read back with the default, saying so; the rest is kept', () => {
		const s = defaultModelSettings();
		s.generation.timeout_s = 3_000_000;
		s.generation.max_tokens = 10_000_000;
		s.generation.temperature = 0.3;
		s.concurrency = 500;
		s.roles.evaluated.model = 'kept-model';
		const read = readStoredModelSettings(toStored(s).settings, null);
		expect(read.settings.generation).toEqual({ ...s.generation, timeout_s: 120, max_tokens: 8192 });
		expect(read.settings.concurrency).toBe(4);
		expect(read.settings.roles.evaluated.model).toBe('kept-model');
		expect(read.repaired).toEqual([
			{ field: 'generation.max_tokens', stored: '10000000', used: 8192 },
			{ field: 'generation.timeout_s', stored: '3000000', used: 120 },
			{ field: 'concurrency', stored: '500', used: 4 }
		]);
		expect(read.repaired.map(repairMessage)).toEqual([
			'Saved value 10000000 refused: Max tokens must be a whole number from 1 to 262144. Using 8192.',
			'Saved value 3000000 refused: Timeout must be a number above 0 and at most 86400. Using 120.',
			'Saved value 500 refused: Concurrency must be a whole number from 1 to 64. Using 4.'
		]);
		// A field an older version did not store, or an emptied number (null), is no repair.
		const older = JSON.parse(toStored(defaultModelSettings()).settings);
		delete older.generation.retries;
		older.generation.temperature = null;
		expect(readStoredModelSettings(JSON.stringify(older), null).repaired).toEqual([]);
	});
});

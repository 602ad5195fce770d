/**
 * One range per setting (`src/lib/core/run-config.ts`): the CLI's flag parser, the Models page
 * and the engine accept exactly what the shared zod schema accepts, at and just past each edge.
 */
import { describe, expect, it } from 'vitest';
import { parseGenerationArgs } from '../../src/cli/args';
import { runStages, type RunStagesOptions } from '../../src/lib/core/engine';
import { UsageError } from '../../src/lib/core/errors';
import {
	Concurrency,
	DEFAULT_CONCURRENCY,
	DEFAULT_SETTINGS,
	SETTING_LIMITS,
	Settings,
	type SettingName
} from '../../src/lib/core/run-config';
import { createSimulatedClient } from '../../src/lib/core/simulated';
import { MemoryStore } from '../../src/lib/core/store/memory-store';
import { defaultModelSettings, settingsProblems } from '../../src/lib/state/model-settings';

const FLAGS: Record<SettingName, string> = {
	temperature: '--temperature',
	judge_temperature: '--judge-temperature',
	max_tokens: '--max-tokens',
	timeout_s: '--timeout',
	retries: '--retries',
	concurrency: '--concurrency'
};

const schemaOf = (name: SettingName) =>
	name === 'concurrency' ? Concurrency : Settings.shape[name as keyof typeof Settings.shape];

/** Values at and around each edge of a setting's range, from the schema itself. */
function edges(name: SettingName): number[] {
	const schema = schemaOf(name);
	const step = SETTING_LIMITS[name].integer ? 1 : 0.5;
	const min = schema.minValue ?? 0;
	const values = [min - step, min, min + step];
	// zod reports MAX_SAFE_INTEGER as the ceiling of an unbounded whole number.
	if (schema.maxValue !== null && schema.maxValue < Number.MAX_SAFE_INTEGER) {
		values.push(schema.maxValue - step, schema.maxValue, schema.maxValue + step);
	}
	return values.filter((v) => v >= 0);
}

function cliAccepts(name: SettingName, value: number): boolean {
	const args = [
		'--dataset',
		'd.json',
		'--run-id',
		'r1',
		'--model',
		'm',
		FLAGS[name],
		String(value)
	];
	try {
		const parsed = parseGenerationArgs(args, { env: {}, cwd: '/tmp' });
		const got = name === 'concurrency' ? parsed.concurrency : parsed.settings[name];
		expect(got).toBe(value);
		return true;
	} catch (e) {
		expect(e).toBeInstanceOf(UsageError);
		return false;
	}
}

function pageAccepts(name: SettingName, value: number): boolean {
	const s = defaultModelSettings();
	s.roles.evaluated.model = 'm';
	if (name === 'concurrency') s.concurrency = value;
	else s.generation[name] = value;
	return settingsProblems(s).length === 0;
}

describe('one range per setting', () => {
	for (const name of Object.keys(SETTING_LIMITS) as SettingName[]) {
		it.each(edges(name))(`${name} = %s: the CLI and the Models page agree with the schema`, (v) => {
			const ok = schemaOf(name).safeParse(v).success;
			expect(cliAccepts(name, v)).toBe(ok);
			expect(pageAccepts(name, v)).toBe(ok);
		});
	}

	it('the defaults fit their own ranges', () => {
		expect(Settings.parse(DEFAULT_SETTINGS)).toEqual(DEFAULT_SETTINGS);
		expect(Concurrency.parse(DEFAULT_CONCURRENCY)).toBe(DEFAULT_CONCURRENCY);
	});

	it("the engine refuses retries above the schema's ceiling before writing anything", async () => {
		const store = new MemoryStore();
		const retries = Settings.shape.retries.maxValue! + 1;
		await expect(
			runStages({
				...engineOptions(store),
				settings: { ...DEFAULT_SETTINGS, retries }
			})
		).rejects.toThrow(`settings.retries: Too big: expected number to be <=${retries - 1}`);
		expect(store.toFiles().size).toBe(0);
	});

	it('the engine refuses a concurrency outside the schema before any call', async () => {
		const over = Concurrency.maxValue! + 1;
		await expect(
			runStages({ ...engineOptions(new MemoryStore()), concurrency: over })
		).rejects.toThrow(`concurrency must be a whole number from 1 to ${over - 1}, got ${over}`);
	});
});

function engineOptions(store: MemoryStore): RunStagesOptions {
	return {
		dataset: {
			sha256: '0'.repeat(64),
			cases: [],
			historyFields: { complete: 'a', underspecified: 'b' },
			categories: {}
		},
		stages: ['gen'],
		client: createSimulatedClient(),
		store,
		runId: 'r1',
		models: { evaluated: 'm', user: 'u', judge: 'j' },
		endpoints: { evaluated: 'x', user: 'x', judge: 'x' }
	};
}

/**
 * One range per setting, from one table (`SETTING_LIMITS`, `src/lib/core/run-defaults.ts`): the
 * CLI's flags, the Models page form, the stored settings and run plans and the engine accept
 * exactly the values inside it, at and just past each end, and say the flag or field and its
 * range when they refuse one.
 */
import { describe, expect, it } from 'vitest';
import { parseGenerationArgs } from '../../src/cli/args';
import { parseRepetitions } from '../../src/cli/plan/repetitions';
import { planRunIds } from '../../src/lib/core/engine/plan';
import { runStages, type RunStagesOptions } from '../../src/lib/core/engine/run-stages';
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
import {
	defaultModelSettings,
	settingsProblems,
	toStored
} from '../../src/lib/state/model-settings';
import { readStoredModelSettings } from '../../src/lib/state/stored-settings';
import { readPlan } from '../../src/lib/core/control/run-plans';

const FLAGS: Record<SettingName, string> = {
	temperature: '--temperature',
	judge_temperature: '--judge-temperature',
	max_tokens: '--max-tokens',
	timeout_s: '--timeout',
	retries: '--retries',
	concurrency: '--concurrency',
	limit: '--limit',
	repetitions: '--repetitions'
};

/** Values at and around each end of a setting's range, with whether the table allows them. */
function edges(name: SettingName): [number, boolean][] {
	const { integer, min, max, exclusiveMin } = SETTING_LIMITS[name];
	const step = integer ? 1 : 0.5;
	return [
		[min - step, false],
		[min, !exclusiveMin],
		[min + step, true],
		[max - step, true],
		[max, true],
		[max + step, false],
		...(integer ? ([[min + 0.5, false]] as [number, boolean][]) : [])
	];
}

function cliAccepts(name: SettingName, value: number): boolean {
	const args = [
		'--dataset',
		'd.json',
		'--run-id',
		'r1',
		'--model',
		'm',
		// `--flag=value`, so a negative value is not read as a flag.
		`${FLAGS[name]}=${value}`
	];
	try {
		if (name === 'repetitions') {
			// The run command's flag, and the run ids a plan takes from it.
			expect(parseRepetitions(`${value}`)).toBe(value);
			expect(planRunIds('run', value)).toHaveLength(value);
			return true;
		}
		const parsed = parseGenerationArgs(args, { env: {}, cwd: '/tmp' });
		const got =
			name === 'concurrency'
				? parsed.concurrency
				: name === 'limit'
					? parsed.limit
					: parsed.settings[name];
		expect(got).toBe(value);
		return true;
	} catch (e) {
		expect(e).toBeInstanceOf(UsageError);
		expect((e as Error).message).toMatch(
			new RegExp(`^${FLAGS[name]} must be .*${SETTING_LIMITS[name].max}`)
		);
		return false;
	}
}

function pageAccepts(name: Exclude<SettingName, 'limit' | 'repetitions'>, value: number): boolean {
	const s = defaultModelSettings();
	s.roles.evaluated.model = 'm';
	if (name === 'concurrency') s.concurrency = value;
	else s.generation[name] = value;
	return settingsProblems(s).length === 0;
}

/** Whether a stored settings entry holding `value` reads back with it (else with a repair). */
function storedAccepts(
	name: Exclude<SettingName, 'limit' | 'repetitions'>,
	value: number
): boolean {
	const s = defaultModelSettings();
	if (name === 'concurrency') s.concurrency = value;
	else s.generation[name] = value;
	const read = readStoredModelSettings(toStored(s).settings, null);
	const got = name === 'concurrency' ? read.settings.concurrency : read.settings.generation[name];
	expect(read.repaired.length).toBe(got === value ? 0 : 1);
	return got === value;
}

function planAccepts(concurrency: number): boolean {
	const plan = {
		runId: 'r1',
		modelDir: 'm-1a2b3c4d',
		stages: ['gen'],
		concurrency,
		datasetName: 'd.json',
		status: 'done',
		error: null,
		updatedAt: '2025-01-01T00:00:00.000Z'
	};
	return readPlan(plan) !== null;
}

describe('one range per setting', () => {
	for (const name of Object.keys(SETTING_LIMITS) as SettingName[]) {
		it.each(edges(name))(
			`${name} = %s: CLI, form, stored settings and plans agree (%s)`,
			(v, ok) => {
				expect(cliAccepts(name, v)).toBe(ok);
				if (name === 'limit' || name === 'repetitions') return;
				expect(pageAccepts(name, v)).toBe(ok);
				expect(storedAccepts(name, v)).toBe(ok);
				if (name === 'concurrency') expect(planAccepts(v)).toBe(ok);
			}
		);
	}

	it("every setting has an upper end; a timeout stays far from the timers' 2^31 ms overflow", () => {
		for (const limit of Object.values(SETTING_LIMITS))
			expect(Number.isFinite(limit.max)).toBe(true);
		expect(SETTING_LIMITS.timeout_s.max * 1000).toBeLessThan(2 ** 31 - 1);
	});

	it('the defaults fit their own ranges', () => {
		expect(Settings.parse(DEFAULT_SETTINGS)).toEqual(DEFAULT_SETTINGS);
		expect(Concurrency.parse(DEFAULT_CONCURRENCY)).toBe(DEFAULT_CONCURRENCY);
	});

	it("the engine refuses retries above the schema's ceiling before writing anything", async () => {
		const store = new MemoryStore();
		const retries = SETTING_LIMITS.retries.max + 1;
		await expect(
			runStages({
				...engineOptions(store),
				settings: { ...DEFAULT_SETTINGS, retries }
			})
		).rejects.toThrow(`settings.retries: Too big: expected number to be <=${retries - 1}`);
		expect(store.toFiles().size).toBe(0);
	});

	it('the engine refuses a concurrency outside the schema before any call', async () => {
		const over = SETTING_LIMITS.concurrency.max + 1;
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

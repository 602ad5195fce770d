import { describe, expect, it } from 'vitest';
import type { Manifest } from '../records';
import { makeManifest } from '../../../../tests/support/record-factories';
import { comparabilityKey, differingFields, groupComparable } from './groups';

const hex = (c: string) => c.repeat(64);

function manifest(runId: string, edit: (m: Manifest) => void = () => {}): Manifest {
	const m = makeManifest({ runId, modelDir: 'gpt-x-1a2b3c4d' });
	edit(m);
	return m;
}

const ids = (groups: { manifest: Manifest }[][]) =>
	groups.map((g) => g.map((r) => r.manifest.run_id));

describe('groupComparable', () => {
	it.each<[string, (m: Manifest) => void]>([
		['dataset sha256', (m) => (m.dataset.sha256 = hex('d'))],
		['selected cases (another --limit)', (m) => (m.dataset.selected_case_numbers = ['1', '2'])],
		['selected cases in another order', (m) => (m.dataset.selected_case_numbers = ['2', '1', '3'])],
		['code_sha256', (m) => (m.code_sha256 = hex('e'))],
		['prompts_sha256', (m) => (m.prompts_sha256 = hex('f'))],
		['evaluated model', (m) => (m.models.evaluated = 'gpt-y')],
		['user model', (m) => (m.models.user = 'gpt-4o-mini')],
		['judge model', (m) => (m.models.judge = 'gpt-4o')],
		['temperature', (m) => (m.settings.temperature = 0.2)],
		['judge temperature', (m) => (m.settings.judge_temperature = 0)],
		['max_tokens', (m) => (m.settings.max_tokens = 4096)],
		['simulated provider', (m) => (m.simulated = true)]
	])('never mixes runs that differ in %s', (_, edit) => {
		const runs = [manifest('run1'), manifest('run2', edit), manifest('run3')].map((m) => ({
			manifest: m
		}));
		expect(ids(groupComparable(runs))).toEqual([['run1', 'run3'], ['run2']]);
	});

	it.each<[string, (m: Manifest) => void]>([
		['endpoints', (m) => (m.endpoints.evaluated = 'http://127.0.0.1:8000/v1')],
		['created_at', (m) => (m.created_at = '2025-04-01T00:00:00.000Z')],
		['tool version', (m) => (m.tool.version = '0.2.0')],
		['extra manifest fields', (m) => Object.assign(m, { harness: { version: '1.2' } })],
		// PROTOCOL.md §5: operational, recorded, never a reason to split a group.
		['timeout', (m) => (m.settings.timeout_s = 60)],
		['retries', (m) => (m.settings.retries = 5)],
		[
			'a resume that raised retries, timeout and concurrency',
			(m) =>
				(m.operational_history = [
					{ at: m.created_at, timeout_s: 120, retries: 3, concurrency: 4 },
					{ at: '2025-04-02T00:00:00.000Z', timeout_s: 300, retries: 10, concurrency: 1 }
				])
		]
	])('groups runs that differ only in %s', (_, edit) => {
		const runs = [manifest('run1'), manifest('run2', edit)].map((m) => ({ manifest: m }));
		expect(ids(groupComparable(runs))).toEqual([['run1', 'run2']]);
	});
});

describe('differingFields', () => {
	it('names exactly the fields that make two runs not comparable', () => {
		const a = manifest('r1');
		const b = manifest('r2', (m) => {
			m.settings.temperature = 0.123;
			m.models.judge = 'other-judge';
			m.endpoints.evaluated = 'https://b.example/v1';
		});
		expect(differingFields(a, b)).toEqual(['models.judge', 'settings.temperature']);
		expect(differingFields(a, manifest('r3'))).toEqual([]);
	});

	it('is empty exactly when the comparability keys are equal', () => {
		const a = manifest('r1');
		const b = manifest('r2', (m) => {
			m.dataset.selected_case_numbers = ['1', '2'];
			m.simulated = true;
		});
		expect(differingFields(a, b)).toEqual(['dataset.selected_case_numbers', 'simulated']);
		expect(comparabilityKey(a) === comparabilityKey(b)).toBe(false);
	});
});

import { describe, expect, it } from 'vitest';
import type { ManifestDifference } from '$lib/core/store/resume';
import { describeDifferences } from './run-differences';

const names = { datasetName: 'cases-a.json', loadedName: 'cases-b.json' };
const d = (field: string, saved: unknown, now: unknown): ManifestDifference => ({
	field,
	saved,
	now
});

describe('describeDifferences', () => {
	it('says what differs in the words of the pages, never the CLI’s', () => {
		const lines = describeDifferences(
			[
				d('dataset.sha256', 'a'.repeat(64), 'b'.repeat(64)),
				d('models.judge', 'judge-1', 'judge-2'),
				d('endpoints.user', 'http://a/v1', 'http://b/v1'),
				d('settings.temperature', 0.7, 0.2),
				d('simulated', true, false)
			],
			names
		);
		expect(lines).toEqual([
			'Dataset: the run used cases-a.json (sha256 aaaaaaaaaaaa…); the loaded dataset is cases-b.json (sha256 bbbbbbbbbbbb…).',
			'judge model: the run used judge-1, the Models page names judge-2.',
			'user endpoint: the run used http://a/v1, the Models page has http://b/v1.',
			'Setting temperature: the run used 0.7, the Models page has 0.2.',
			'Provider: the run used the simulated provider, the Models page uses real endpoints.'
		]);
		expect(lines.join('\n')).not.toContain('--');
	});

	it('leaves out what a different dataset file explains, and names a changed selection', () => {
		const other = describeDifferences(
			[
				d('dataset.sha256', 'a'.repeat(64), 'b'.repeat(64)),
				d('dataset.n_cases', 14, 10),
				d('dataset.selected_case_numbers', ['1', '2'], ['1'])
			],
			{ datasetName: null, loadedName: 'b.json' }
		);
		expect(other).toHaveLength(1);
		expect(other[0]).toContain('the run used another file');
		expect(
			describeDifferences([d('dataset.selected_case_numbers', ['1', '2', '3'], ['1', '2'])], names)
		).toEqual(['Cases: the run selected 3 cases, this form selects 2 (Limit).']);
	});

	it('shows a hostile saved value escaped and clipped', () => {
		const [line] = describeDifferences(
			[d('models.evaluated', `evil\u202e${'x'.repeat(500)}`, 'ok')],
			names
		);
		expect(line).toContain('evil\\u202e');
		expect(line).not.toContain('\u202e');
		expect(line).toMatch(/characters in all\)/);
	});
});

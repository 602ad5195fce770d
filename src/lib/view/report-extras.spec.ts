import { describe, expect, it } from 'vitest';
import { syntheticRun } from '../../../tests/support/leaderboard-runs';
import { computeLeaderboard } from '$lib/core/leaderboard/leaderboard';
import { reportExtras } from './report-extras';

const HOSTILE = '<script>alert(1)</script>';

describe('the HTML report’s leaderboard, comparison and provenance', () => {
	const runs = [HOSTILE, 'gpt-x'].flatMap((model) =>
		['run1', 'run2'].map((runId) => {
			const run = syntheticRun({ model, runId, skill: 0.7 }, 20);
			run.manifest.endpoints.evaluated = 'https://user:secret@api.example.test/v1?key=sk-123';
			run.manifest.simulated = model === 'gpt-x';
			return run;
		})
	);
	const leaderboard = computeLeaderboard(runs, { bootstrap: { resamples: 100 } });
	const html = reportExtras({ leaderboard, costs: [], comparison: null, runs, locale: 'en' }).join(
		'\n'
	);

	it('ranks the models, with a forest plot, and escapes their ids', () => {
		expect(html).toContain('<h2>Leaderboard</h2>');
		expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
		expect(html).not.toContain(HOSTILE);
		expect(html).toContain('<svg');
		expect(html).toMatch(/>\d \[\d–\d\] · \[0\.\d{4}, 0\.\d{4}\]</);
	});

	it('gives each run’s provenance with the endpoints’ hosts only', () => {
		expect(html).toContain('Provenance of every run');
		expect(html).toContain(runs[0].manifest.dataset.sha256);
		expect(html).toContain(runs[0].manifest.prompts_sha256);
		expect(html).toContain('api.example.test');
		expect(html).not.toContain('secret');
		expect(html).not.toContain('sk-123');
		expect(html).toContain('temperature 0.7, judge_temperature 0.1, max_tokens 8192');
		expect(html.match(/<td><span class="small">(yes|no)<\/span><\/td>/g)).toHaveLength(4);
	});

	it('says when no pair was compared', () => {
		expect(html).toContain('No two runs were compared on the page.');
	});
});

import { describe, expect, it } from 'vitest';
import { DEFAULT_LEADERBOARD_QUERY } from '$lib/view/leaderboard-query';
import { LeaderboardChoices } from './leaderboard-choices.svelte';
import { PanelChoices } from './results-panels.svelte';

describe('the leaderboard’s choices', () => {
	it('sorts a new column best first and turns the sorted one round', () => {
		const c = new LeaderboardChoices();
		c.sortBy('dcg_success');
		expect([c.sort, c.dir]).toEqual(['dcg_success', 'desc']);
		c.sortBy('dcg_success');
		expect(c.query).toMatchObject({ sort: 'dcg_success', dir: 'asc' });
		c.sortBy('cost');
		expect([c.sort, c.dir]).toEqual(['cost', 'asc']);
	});

	it('are part of the Results page’s panel query, taken back from a link', () => {
		const panels = new PanelChoices();
		const leaderboard = {
			sort: 'model',
			dir: 'desc',
			metric: 'ljp_gold_qwk',
			cls: '劳动'
		} as const;
		panels.restore({ compareClass: '', matrix: null, matrixClass: '', leaderboard });
		expect(panels.query.leaderboard).toEqual(leaderboard);
		panels.restore({ ...panels.query, leaderboard: DEFAULT_LEADERBOARD_QUERY });
		expect(panels.query.leaderboard).toEqual(DEFAULT_LEADERBOARD_QUERY);
	});
});

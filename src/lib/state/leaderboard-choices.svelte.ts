/**
 * What the user chose on the Results page's leaderboard: the sort column and direction, the
 * class shown and the heat map's metric. Kept apart from the leaderboard's statistics (loaded
 * with its panel) so the page's URL holds the choices from the start and a link or a reload shows
 * the same table (`view/leaderboard-query.ts`).
 */
import type { ColumnKey } from '$lib/core/protocol/metrics';
import type { SortKey } from '$lib/core/leaderboard/sort';
import {
	DEFAULT_LEADERBOARD_QUERY as DEFAULT,
	defaultDirection,
	type LeaderboardQuery,
	type SortDirection
} from '$lib/view/leaderboard-query';

export class LeaderboardChoices {
	sort = $state<SortKey>(DEFAULT.sort);
	dir = $state<SortDirection>(DEFAULT.dir);
	/** The class whose leaderboard is shown; null: all cases. */
	cls = $state<string | null>(DEFAULT.cls);
	/** The metric of the heat map and of the narrow-screen table. */
	metric = $state<ColumnKey>(DEFAULT.metric);

	readonly query = $derived<LeaderboardQuery>({
		sort: this.sort,
		dir: this.dir,
		metric: this.metric,
		cls: this.cls
	});

	/** Sorts by `key`, best first; the column sorted already turns round. */
	sortBy(key: SortKey): void {
		if (key === this.sort) {
			this.dir = this.dir === 'asc' ? 'desc' : 'asc';
			return;
		}
		this.sort = key;
		this.dir = defaultDirection(key);
	}

	/** Takes the choices a link names. */
	restore(query: LeaderboardQuery): void {
		this.sort = query.sort;
		this.dir = query.dir;
		this.metric = query.metric;
		this.cls = query.cls;
	}
}

export const leaderboardChoices = new LeaderboardChoices();

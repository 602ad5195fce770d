/**
 * The leaderboard's choices in the Results URL, beside the page's own (`results-query.ts`): the
 * sort column and its direction, the heat map's metric and the class shown
 * (`lb_sort=ljp_gold_qwk&lb_dir=asc&lb_metric=dcg_success&lb_class=…`). Only a choice that is
 * not the default is written; a link is hostile text, so a value that names no column, direction
 * or bounded class is dropped and the default shown.
 */
import { columnKey, type ColumnKey } from '$lib/core/protocol/metrics';
import { sortKey, type SortKey } from '$lib/core/leaderboard/sort';

export type SortDirection = 'asc' | 'desc';

export interface LeaderboardQuery {
	sort: SortKey;
	dir: SortDirection;
	metric: ColumnKey;
	/** The class shown; null for all cases. */
	cls: string | null;
}

export const DEFAULT_LEADERBOARD_QUERY: LeaderboardQuery = {
	sort: 'lca_macro_f1',
	dir: 'desc',
	metric: 'lca_macro_f1',
	cls: null
};

/** A class name longer than this is not read from a link (the dataset's are far shorter). */
export const MAX_LINKED_CLASS = 200;

/** Best first: the highest metric, the fewest tokens or the cheapest; model ids A to Z. */
export const defaultDirection = (key: SortKey): SortDirection =>
	key === 'tokens' || key === 'cost' || key === 'model' ? 'asc' : 'desc';

/** The leaderboard's choices a URL names; what it does not name (or names badly) is the default. */
export function parseLeaderboardQuery(params: URLSearchParams): LeaderboardQuery {
	const sort = sortKey(params.get('lb_sort') ?? '') ?? DEFAULT_LEADERBOARD_QUERY.sort;
	const dir = params.get('lb_dir');
	const cls = params.get('lb_class');
	return {
		sort,
		dir: dir === 'asc' || dir === 'desc' ? dir : defaultDirection(sort),
		metric: columnKey(params.get('lb_metric') ?? '') ?? DEFAULT_LEADERBOARD_QUERY.metric,
		cls: cls && cls.length <= MAX_LINKED_CLASS ? cls : null
	};
}

/** Sets the parameters of `query` that differ from the default on `params`. */
export function writeLeaderboardQuery(params: URLSearchParams, query: LeaderboardQuery): void {
	if (query.sort !== DEFAULT_LEADERBOARD_QUERY.sort) params.set('lb_sort', query.sort);
	if (query.dir !== defaultDirection(query.sort)) params.set('lb_dir', query.dir);
	if (query.metric !== DEFAULT_LEADERBOARD_QUERY.metric) params.set('lb_metric', query.metric);
	if (query.cls !== null) params.set('lb_class', query.cls);
}

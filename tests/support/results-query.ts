/** The Results page's query when the user has chosen nothing, for the query and state specs. */
import { DEFAULT_LEADERBOARD_QUERY } from '../../src/lib/view/leaderboard-query';
import { DEFAULT_FIGURE_CHOICE } from '../../src/lib/view/result-figures';
import type { ResultsQuery } from '../../src/lib/view/results-query';

/** Every run shown, the default mode, figures and leaderboard, no panel open, no bundle link. */
export const NO_CHOICE: ResultsQuery = {
	runs: null,
	mode: null,
	mixSimulated: false,
	choice: { ...DEFAULT_FIGURE_CHOICE },
	compare: null,
	compareClass: '',
	matrix: null,
	matrixClass: '',
	leaderboard: DEFAULT_LEADERBOARD_QUERY,
	bundle: null
};

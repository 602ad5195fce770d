/**
 * What the user picked in the Results page's lower panels, kept here rather than in the panels
 * so that the page's URL holds it and a shared link reopens it: the class the paired comparison
 * is read over, the run and class of the confusion matrices, and the leaderboard's choices (kept
 * by the leaderboard's state). A pick that names nothing the
 * report holds (a link's class the runs lack) reads as the panel's default.
 */
import type { ResultsQuery } from '$lib/view/results-query';
import { leaderboardChoices, type LeaderboardChoices } from './leaderboard-choices.svelte';

/** The panel picks of a URL query. */
export type PanelQuery = Pick<
	ResultsQuery,
	'compareClass' | 'matrix' | 'matrixClass' | 'leaderboard'
>;

export class PanelChoices {
	/** The cause class of the paired comparison; '' for all cases. */
	compareClass = $state('');
	/** The run (key) of the confusion matrices; null for the first shown. */
	matrix = $state<string | null>(null);
	/** The cause class of the confusion matrices; '' for all cases. */
	matrixClass = $state('');
	readonly #leaderboard: LeaderboardChoices = leaderboardChoices;

	/** The picks as the URL keeps them. */
	readonly query = $derived<PanelQuery>({
		compareClass: this.compareClass,
		matrix: this.matrix,
		matrixClass: this.matrixClass,
		leaderboard: this.#leaderboard.query
	});

	/** Takes the picks a link names. */
	restore(query: PanelQuery): void {
		this.compareClass = query.compareClass;
		this.matrix = query.matrix;
		this.matrixClass = query.matrixClass;
		this.#leaderboard.restore(query.leaderboard);
	}
}

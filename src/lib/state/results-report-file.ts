/**
 * The self-contained HTML report of what the Results page shows, in the export language. Its
 * writers (and the leaderboard's state) are imported on the first download.
 */
import type { LoadedRun, ResultsReport } from '$lib/core/results';
import type { ComparisonReport } from '$lib/core/results';
import type { Locale } from '$lib/paraglide/runtime';
import type { ResultFigures } from '$lib/view/result-figures';
import { groupDifferences } from '$lib/view/shown-report';

/** What the page shows, as the report needs it. */
export interface ShownReport {
	/** The report as drawn (simulated runs left out beside real ones unless mixed). */
	drawn: ResultsReport;
	/** The report of every shown run: its notes go in the report. */
	full: ResultsReport;
	/** The figures as exports word them. */
	figures: ResultFigures;
	/** The export language: undefined for the interface's. */
	locale: Locale | undefined;
	comparison: ComparisonReport | null;
	/** The shown runs as loaded: what the leaderboard ranks. */
	runs: LoadedRun[];
	simulated: (key: string) => boolean;
	manifestOf: (key: string) => LoadedRun['manifest'] | undefined;
}

/**
 * The HTML report made at `now` (ms) of what `shown` gives once the writers are loaded, or null
 * when nothing is shown.
 */
export async function resultsReportHtml(
	shown: () => ShownReport | null,
	now: number
): Promise<string | null> {
	if (!shown()) return null;
	const [{ resultsHtml }, { reportExtras }, { leaderboardState }, { reportNotes }] =
		await Promise.all([
			import('$lib/view/results-html'),
			import('$lib/view/report-extras'),
			import('./leaderboard.svelte'),
			import('$lib/view/result-figures')
		]);
	const s = shown();
	if (!s) return null;
	const { locale } = s;
	const sections = reportExtras({
		leaderboard: leaderboardState.leaderboard,
		costs: leaderboardState.costs,
		comparison: s.comparison,
		runs: s.runs,
		locale
	});
	const differences = groupDifferences(s.drawn, s.manifestOf, locale);
	return resultsHtml({
		report: s.drawn,
		figures: s.figures,
		simulated: s.simulated,
		notes: [...reportNotes(s.full, locale), ...differences],
		generatedAt: new Date(now).toISOString(),
		locale,
		sections
	});
}

/**
 * The self-contained HTML report of what the Results page shows, over the page's figures
 * (`result-figures.ts`). Apart from them so that the page loads the report's writer (and the SVG
 * charts it embeds) only when a report is downloaded.
 */
import { VERDICTS } from '$lib/core/dataset/names';
import { LJP_SETUPS } from '$lib/core/metrics/types';
import type { ResultsReport } from '$lib/core/results';
import { m } from '$lib/paraglide/messages';
import type { Locale } from '$lib/paraglide/runtime';
import { reportRunKey } from '$lib/core/names';
import { LJP_SETUP_NAMES } from './figure-metrics';
import { htmlReport } from './html-report';
import { uncertainty, type ResultFigures } from './result-figures';
import { countsText } from './table-format';

export interface ResultsHtmlInput {
	/** The report as drawn (`drawnReport`). */
	report: ResultsReport;
	figures: ResultFigures;
	/** Whether a run (`run_id/model_dir`) was made by the simulated provider. */
	simulated: (runKey: string) => boolean;
	/** The page's notes and group differences, in that order. */
	notes: string[];
	/** ISO 8601. */
	generatedAt: string;
	/** The report's language (its figures should be in it too). @default the interface's */
	locale?: Locale;
	/** Leaderboard, comparison and provenance sections (`report-extras.ts`). */
	sections?: string[];
}

/** The self-contained HTML report of what the page shows. */
export function resultsHtml(input: ResultsHtmlInput): string {
	const { report, locale } = input;
	const o = { locale };
	const label = (r: ResultsReport['runs'][number]) => `${r.model} · ${r.run_id}`;
	return htmlReport({
		title: m.results_report_title({}, o),
		generatedAt: input.generatedAt,
		runs: report.runs.map((r) => ({
			label: label(r),
			detail: [
				countsText(r.counts, true, locale),
				...(input.simulated(reportRunKey(r)) ? [m.results_badge_simulated({}, o)] : []),
				...(r.partial ? [m.results_badge_partial({}, o)] : [])
			].join(' · ')
		})),
		figures: Object.values(input.figures),
		confusion: report.runs.flatMap((r) =>
			LJP_SETUPS.flatMap((s) => {
				const matrix = r.ljp_confusion[s];
				return matrix ? [{ label: label(r), setup: LJP_SETUP_NAMES[s], matrix }] : [];
			})
		),
		verdicts: VERDICTS,
		uncertainty: uncertainty(locale),
		notes: input.notes,
		sections: input.sections,
		locale
	});
}

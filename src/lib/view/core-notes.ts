/**
 * The notes the results core writes in English (as `results` and `results --compare` print
 * them), worded in the interface language for the Results page and its report. Each form the
 * core writes has a pattern here; `core-notes.spec.ts` makes the core write every one of them,
 * so a change of wording there fails that test rather than leaving English on a Chinese page.
 * A note of any other form is passed on as it came. Cause names inside a note are data:
 * escaped, never translated.
 */
import { escapeControl } from '$lib/core/text/escape-control';
import { m } from '$lib/paraglide/messages';
import type { Locale } from '$lib/paraglide/runtime';

type Word = (g: string[], o: { locale?: Locale }) => string;

const UNITS: Record<string, (o: { locale?: Locale }) => string> = {
	'records (2 per case)': (o) => m.results_unit_records_per_case({}, o),
	records: (o) => m.results_unit_records({}, o),
	cases: (o) => m.results_unit_cases({}, o)
};

const PATTERNS: [RegExp, Word][] = [
	// Completeness of a run's stage files (run-metrics.ts).
	[/^(\w+): no file yet$/, ([file], o) => m.results_note_no_file({ file }, o)],
	[
		/^(\w+): (\d+) of (\d+) (records \(2 per case\)|records|cases), (partial figures over the saved ones|not scored until complete)$/,
		([file, have, expected, unit, what], o) =>
			(what.startsWith('partial') ? m.results_note_partial : m.results_note_incomplete)(
				{ file, have, expected, unit: UNITS[unit](o) },
				o
			)
	],
	[
		/^cause "([\s\S]*)" is not in the run's category map, counted as (\S+)$/,
		([cause, cls], o) => m.results_note_cause({ cause: escapeControl(cause), cls }, o)
	],
	// A group of runs (report.ts).
	[/^member runs use different category maps/, (_, o) => m.results_note_group_maps({}, o)],
	// Files without a manifest (report.ts).
	[
		/^([\s\S]+) is missing, so ([\s\S]+) cannot be scored$/,
		([manifest, files], o) => m.results_note_no_manifest({ manifest, files }, o)
	],
	// A paired comparison (compare.ts, paired.ts).
	[
		/^some cases fall in different classes in the two runs/,
		(_, o) => m.results_cmp_note_classes({}, o)
	],
	[
		/^the runs differ in no model, code or result-affecting setting/,
		(_, o) => m.results_cmp_note_repeats({}, o)
	],
	[/^the runs differ in (.+)$/, ([fields], o) => m.results_cmp_note_differ({ fields }, o)],
	[
		/^([AB]): (\w+) is (missing|incomplete), so its figures are not compared$/,
		([side, file, status], o) =>
			(status === 'missing' ? m.results_cmp_note_missing : m.results_cmp_note_incomplete)(
				{ side, file },
				o
			)
	]
];

/** A note of the results core in `locale` (the interface's when undefined). */
export function coreNote(note: string, locale?: Locale): string {
	for (const [pattern, word] of PATTERNS) {
		const match = pattern.exec(note);
		if (match) return word(match.slice(1), { locale });
	}
	return note;
}

/**
 * Why the Results page will not pair two runs, in the interface language: the same checks as the
 * core's `comparisonSaid` (the same dataset file, the same selected cases), made on the page
 * before the worker is asked, so the refusal is worded here and follows a language switch.
 * Case numbers come from records an imported bundle may have written: escaped and clipped.
 */
import type { LoadedRun } from '$lib/core/results';
import { clipText } from '$lib/core/text/clip';
import { escapeControl } from '$lib/core/text/escape-control';
import { m } from '$lib/paraglide/messages';
import type { Locale } from '$lib/paraglide/runtime';

/** Case numbers quoted per side, at most. */
const LISTED = 5;
/** Longest case number quoted. */
const MAX_CASE = 40;

/** What keeps two runs from being paired, with the figures its sentence needs; null if nothing. */
export type Refusal =
	| { kind: 'not-shown' }
	| { kind: 'same' }
	| { kind: 'dataset'; a: string; b: string }
	| { kind: 'cases'; na: number; nb: number; onlyA: string[]; onlyB: string[] };

/** The refusal for runs A and B (keys `a`, `b`), either of which may not be loaded. */
export function refusalOf(
	a: string,
	b: string,
	runA: LoadedRun | undefined,
	runB: LoadedRun | undefined
): Refusal | null {
	if (!runA || !runB) return { kind: 'not-shown' };
	if (a === b) return { kind: 'same' };
	const [sa, sb] = [runA.manifest.dataset.sha256, runB.manifest.dataset.sha256];
	if (sa !== sb) return { kind: 'dataset', a: sa.slice(0, 12), b: sb.slice(0, 12) };
	const inA = new Set(runA.table.case_numbers);
	const inB = new Set(runB.table.case_numbers);
	const onlyA = runA.table.case_numbers.filter((c) => !inB.has(c));
	const onlyB = runB.table.case_numbers.filter((c) => !inA.has(c));
	if (onlyA.length === 0 && onlyB.length === 0) return null;
	return { kind: 'cases', na: inA.size, nb: inB.size, onlyA, onlyB };
}

function caseList(cases: readonly string[], locale: Locale | undefined): string {
	if (cases.length === 0) return m.results_refuse_none({}, { locale });
	const shown = cases.slice(0, LISTED).map((c) => clipText(escapeControl(c), MAX_CASE));
	return `${cases.length} (${shown.join(', ')}${cases.length > LISTED ? ', …' : ''})`;
}

/** The refusal as one sentence, in `locale` (the interface's when undefined). */
export function refusalText(refusal: Refusal, locale?: Locale): string {
	const o = { locale };
	switch (refusal.kind) {
		case 'not-shown':
			return m.results_refuse_not_shown({}, o);
		case 'same':
			return m.results_refuse_same({}, o);
		case 'dataset':
			return m.results_refuse_dataset({ a: refusal.a, b: refusal.b }, o);
		case 'cases':
			return m.results_refuse_cases(
				{
					na: refusal.na,
					nb: refusal.nb,
					onlyA: caseList(refusal.onlyA, locale),
					onlyB: caseList(refusal.onlyB, locale)
				},
				o
			);
	}
}

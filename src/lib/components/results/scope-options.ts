import { m } from '$lib/paraglide/messages';

/** The cause-class picker of a Results panel: all cases (''), then each class by its name. */
export function scopeOptions(classes: readonly string[]): { value: string; label: string }[] {
	return [
		{ value: '', label: m.results_all_cases() },
		...classes.map((cls) => ({ value: cls, label: cls }))
	];
}

/** The scope shown: `scope` when the report has that class, else all cases (a link's old class). */
export const shownScope = (classes: readonly string[], scope: string): string =>
	classes.includes(scope) ? scope : '';

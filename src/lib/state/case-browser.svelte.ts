/**
 * The case browser's search, class filter and chosen case. Kept outside the component so
 * returning to the Dataset page finds the same case open.
 */
import type { Case } from '$lib/core/dataset/types';

export class CaseBrowserState {
	text = $state('');
	cls = $state('');
	/** case_number of the open case, or null for the first listed. */
	selected = $state<string | null>(null);

	/** The case to show: the selected one if it is listed, else the first listed. */
	current(listed: readonly Case[]): Case | null {
		return listed.find((c) => c.case_number === this.selected) ?? listed[0] ?? null;
	}

	reset(): void {
		this.text = '';
		this.cls = '';
		this.selected = null;
	}
}

export const caseBrowser = new CaseBrowserState();

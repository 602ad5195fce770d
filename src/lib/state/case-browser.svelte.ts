/**
 * The case browser's search, class filter and chosen case. Kept outside the component so
 * returning to the Dataset page finds the same case open.
 */
export class CaseBrowserState {
	text = $state('');
	cls = $state('');
	/** case_number of the open case, or null for the first listed. */
	selected = $state<string | null>(null);

	reset(): void {
		this.text = '';
		this.cls = '';
		this.selected = null;
	}
}

export const caseBrowser = new CaseBrowserState();

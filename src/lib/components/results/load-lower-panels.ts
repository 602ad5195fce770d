/**
 * The Results page's panels below the figures, fetched once, when a report is first there to
 * show: they stay out of the page's first load (tests/bench/first-load.ts).
 */
let loading: Promise<typeof import('./lower-panels')> | undefined;

export function loadLowerPanels(): Promise<typeof import('./lower-panels')> {
	loading ??= import('./lower-panels');
	return loading;
}

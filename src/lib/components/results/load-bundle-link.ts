/**
 * The bundle-from-a-link machinery (its state, fetcher, reader texts and card), fetched only when
 * the page's URL names a bundle: the Results page's first load stays without it.
 */
import type { Component } from 'svelte';
import type { BundleLinkState } from '$lib/state/bundle-link.svelte';
import type { ResultsState } from '$lib/state/results.svelte';

export interface BundleLinkParts {
	state: BundleLinkState;
	Card: Component<{ state: BundleLinkState }>;
}

/** The parts, with a state that shows the bundle on `results`. */
export async function loadBundleLink(results: ResultsState): Promise<BundleLinkParts> {
	const [{ BundleLinkState }, { default: Card }] = await Promise.all([
		import('$lib/state/bundle-link.svelte'),
		import('./BundleLink.svelte')
	]);
	return { state: new BundleLinkState({ results }), Card };
}

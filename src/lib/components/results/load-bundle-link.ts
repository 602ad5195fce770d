/**
 * The bundle-from-a-link machinery (its state, fetcher, reader texts and card), fetched only when
 * the page's URL names a bundle: the Results page's first load stays without it.
 */
import type { Component } from 'svelte';
import type { BundleLinkState } from '$lib/state/bundle-link.svelte';

export interface BundleLinkParts {
	state: BundleLinkState;
	Card: Component<{ state: BundleLinkState }>;
}

export async function loadBundleLink(): Promise<BundleLinkParts> {
	const [{ bundleLinkState }, { default: Card }] = await Promise.all([
		import('$lib/state/bundle-link.svelte'),
		import('./BundleLink.svelte')
	]);
	return { state: bundleLinkState, Card };
}

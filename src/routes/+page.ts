import { settingsState } from '$lib/state/settings.svelte';

// The page names the evaluated model: stored settings are read (their schema fetched) first, so
// it never says none is chosen when one is.
export async function load(): Promise<void> {
	await settingsState.restored();
}

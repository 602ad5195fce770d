import { settingsState } from '$lib/state/settings.svelte';

// The page edits the stored settings: they are read (their schema fetched) before it shows, so
// no field is drawn, edited or written with the defaults first.
export async function load(): Promise<void> {
	await settingsState.restored();
}

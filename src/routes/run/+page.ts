import { promptsState } from '$lib/state/prompts.svelte';
import { settingsState } from '$lib/state/settings.svelte';

// The page shows and runs the prompt pack and the model settings: an edited pack and stored
// settings are read (their checks fetched) before the page shows, so nothing on it is drawn or
// started with the defaults.
export async function load(): Promise<void> {
	await Promise.all([promptsState.restored(), settingsState.restored()]);
}

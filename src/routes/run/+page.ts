import { promptsState } from '$lib/state/prompts.svelte';

// The page shows and runs the prompt pack: an edited pack stored in this browser is read (its
// validator fetched) before the page shows, so nothing on it is drawn or started with the default.
export async function load(): Promise<void> {
	await promptsState.restored();
}

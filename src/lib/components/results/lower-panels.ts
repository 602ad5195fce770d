/** The Results page's panels below the figures, one chunk that LowerSections.svelte fetches. */
export { default as CallTotalsTable } from './CallTotalsTable.svelte';
export { default as ComparePanel } from './ComparePanel.svelte';
export { default as ConfusionPanel } from './ConfusionPanel.svelte';
export { default as LeaderboardSection } from './LeaderboardSection.svelte';
export { default as JudgesPanel } from './JudgesPanel.svelte';

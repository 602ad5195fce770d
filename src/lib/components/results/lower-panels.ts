/**
 * The Results page's panels below the figures (confusion matrices, paired comparison, call
 * totals), loaded by load-lower-panels.ts.
 */
export { default as CallTotalsTable } from './CallTotalsTable.svelte';
export { default as ComparePanel } from './ComparePanel.svelte';
export { default as ConfusionPanel } from './ConfusionPanel.svelte';
export { default as LeaderboardSection } from './LeaderboardSection.svelte';

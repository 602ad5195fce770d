/** Names of LJP setups and stage files on the Inspect page, in the page's language. */
import { m } from '$lib/paraglide/messages';
import type { LjpSetup } from '$lib/core/metrics/types';
import type { StageFile } from '$lib/core/record-names';

/** `Direct`, or with `long` the history it predicts from. */
export function setupName(setup: LjpSetup, long = false): string {
	if (setup === 'direct') return long ? m.inspect_setup_direct_long() : m.inspect_setup_direct();
	if (setup === 'gold') return long ? m.inspect_setup_gold_long() : m.inspect_setup_gold();
	return m.inspect_setup_interaction();
}

const FILE_NAMES: Record<StageFile, () => string> = {
	a1: m.inspect_file_a1,
	interaction: m.inspect_file_interaction,
	force_ask: m.inspect_file_force_ask,
	a1_direct: m.inspect_file_a1_direct,
	a1_force_judge: m.inspect_file_a1_force_judge,
	LCA_results: m.inspect_file_lca,
	DCG_results: m.inspect_file_dcg,
	LJP_direct: m.inspect_file_ljp_direct,
	LJP_gold: m.inspect_file_ljp_gold,
	LJP_interaction: m.inspect_file_ljp_interaction
};

/** A stage file's name for the page, in its language. */
export function stageFileName(file: StageFile): string {
	return FILE_NAMES[file]();
}

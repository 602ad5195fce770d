/** Names of LJP setups and stage files on the Inspect page, in the page's language. */
import { m } from '$lib/paraglide/messages';
import type { LjpSetup } from '$lib/core/metrics/types';
import type { StageFile } from '$lib/core/records';

/** `Direct`, or with `long` the history it predicts from. */
export function setupName(setup: LjpSetup, long = false): string {
	if (setup === 'direct') return long ? m.inspect_setup_direct_long() : m.inspect_setup_direct();
	if (setup === 'gold') return long ? m.inspect_setup_gold_long() : m.inspect_setup_gold();
	return m.inspect_setup_interaction();
}

export function stageFileName(file: StageFile): string {
	switch (file) {
		case 'a1':
			return m.inspect_file_a1();
		case 'interaction':
			return m.inspect_file_interaction();
		case 'force_ask':
			return m.inspect_file_force_ask();
		case 'a1_direct':
			return m.inspect_file_a1_direct();
		case 'a1_force_judge':
			return m.inspect_file_a1_force_judge();
		case 'LCA_results':
			return m.inspect_file_lca();
		case 'DCG_results':
			return m.inspect_file_dcg();
		case 'LJP_direct':
			return m.inspect_file_ljp_direct();
		case 'LJP_gold':
			return m.inspect_file_ljp_gold();
		case 'LJP_interaction':
			return m.inspect_file_ljp_interaction();
	}
}

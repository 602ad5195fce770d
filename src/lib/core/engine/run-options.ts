/** The one check of what a run is given, for `runStages` and `runAll` alike. */
import type { Role } from '../record-names';
import { checkRunId } from '../layout';
import { coded, type CoreText } from '../said';
import { Concurrency, Settings } from '../run-config';
import { DEFAULT_SETTINGS, SETTING_LIMITS } from '../run-defaults';
import { UsageError } from '../errors';
import { RUN_ALL_STAGES, STAGE_NAMES, type StageName } from '../protocol';

export interface CheckedOptions {
	stages?: readonly StageName[];
	runId: string;
	settings?: Settings;
	concurrency?: number | 'auto';
	limit?: number;
	models: Record<Role, string>;
}

/**
 * Throws `UsageError` for an option no run can take; returns the stages in the order they run:
 * `in-turn` (`runStages`) as named, one after another; `together` (`runAll`) in protocol order,
 * where `lca` cannot join `gen` and `concurrency` may be `auto`.
 */
export function checkRunOptions(
	options: CheckedOptions,
	mode: 'in-turn' | 'together'
): StageName[] {
	const together = mode === 'together';
	const named = options.stages ?? (together ? RUN_ALL_STAGES : []);
	if (named.length === 0) refuse(coded('opt_no_stage', {}));
	for (const stage of named) {
		if (!STAGE_NAMES.includes(stage)) {
			refuse(coded('opt_unknown_stage', { stage, stages: STAGE_NAMES.join(', ') }));
		}
	}
	if (together && named.includes('gen') && named.includes('lca')) {
		refuse(coded('opt_gen_with_lca', {}));
	}
	// The rule the CLI and the Run page apply too: an id that no folder can have everywhere is
	// refused here, so no caller of the engine starts a run that a bundle could not carry.
	checkRunId(options.runId);
	const checked = Settings.safeParse(options.settings ?? DEFAULT_SETTINGS);
	if (!checked.success) {
		const issue = checked.error.issues[0];
		refuse(coded('opt_setting', { field: issue.path.join('.'), detail: issue.message }));
	}
	// "auto" is no number (only `runAll` takes it): only a number is held to the shared range.
	const c = options.concurrency;
	if (c !== undefined && !(together && c === 'auto') && !Concurrency.safeParse(c).success) {
		const { min, max } = SETTING_LIMITS.concurrency;
		refuse(
			coded(together ? 'opt_concurrency_or_auto' : 'opt_concurrency', { min, max, got: `${c}` })
		);
	}
	if (options.limit !== undefined && (!Number.isInteger(options.limit) || options.limit < 1)) {
		refuse(coded('opt_limit', { got: `${options.limit}` }));
	}
	if (!options.models.evaluated.trim()) refuse(coded('opt_no_evaluated_model', {}));
	return together ? STAGE_NAMES.filter((s) => named.includes(s)) : [...named];
}

function refuse(said: CoreText): never {
	throw new UsageError([said]);
}

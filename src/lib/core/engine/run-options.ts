/** The one check of what a run is given, for `runStages` and `runAll` alike. */
import type { Role } from '../record-names';
import { runIdProblem, unportableText } from '../layout';
import { escapeControl } from '../text/escape-control';
import { Concurrency, Settings } from '../run-config';
import { DEFAULT_SETTINGS, SETTING_LIMITS } from '../run-defaults';
import { UsageError } from '../errors';
import { RUN_ALL_STAGES, STAGE_NAMES, type StageName } from './types';

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
	if (named.length === 0) throw new UsageError('no stage to run');
	for (const stage of named) {
		if (!STAGE_NAMES.includes(stage)) {
			throw new UsageError(`unknown stage "${stage}"; the stages are ${STAGE_NAMES.join(', ')}`);
		}
	}
	if (together && named.includes('gen') && named.includes('lca')) {
		throw new UsageError(
			'gen labels every a1 response it generates; lca only re-judges saved ones. Name one of the two.'
		);
	}
	// The rule the CLI and the Run page apply too: an id that no folder can have everywhere is
	// refused here, so no caller of the engine starts a run that a bundle could not carry.
	const runIdRule = runIdProblem(options.runId);
	const shownId = escapeControl(options.runId);
	if (runIdRule === 'alphabet') {
		throw new UsageError(
			`run id "${shownId}" must start with a letter or digit and hold only letters, digits, ".", "_" or "-" (at most 64)`
		);
	}
	if (runIdRule !== null) {
		throw new UsageError(
			`run id: ${unportableText(runIdRule, shownId)}; choose another run id (an output root or a bundle holding it could not be unpacked on Windows)`
		);
	}
	const checked = Settings.safeParse(options.settings ?? DEFAULT_SETTINGS);
	if (!checked.success) {
		const issue = checked.error.issues[0];
		throw new UsageError(`settings.${issue.path.join('.')}: ${issue.message}`);
	}
	// "auto" is no number (only `runAll` takes it): only a number is held to the shared range.
	const c = options.concurrency;
	if (c !== undefined && !(together && c === 'auto') && !Concurrency.safeParse(c).success) {
		const { min, max } = SETTING_LIMITS.concurrency;
		throw new UsageError(
			`concurrency must be a whole number from ${min} to ${max}${together ? ' or "auto"' : ''}, got ${c}`
		);
	}
	if (options.limit !== undefined && (!Number.isInteger(options.limit) || options.limit < 1)) {
		throw new UsageError(`limit must be a whole number of at least 1, got ${options.limit}`);
	}
	if (!options.models.evaluated.trim()) throw new UsageError('no evaluated model given');
	return together ? STAGE_NAMES.filter((s) => named.includes(s)) : [...named];
}

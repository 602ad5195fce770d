/**
 * What the Results page draws from the report of the selected runs: simulated runs are left
 * out while real ones are shown, unless the user asks to see them side by side, and groups of
 * one model that cannot be averaged say which manifest fields keep them apart.
 */
import { differingFields } from '$lib/core/metrics/groups';
import type { Manifest } from '$lib/core/records';
import type { ResultsReport } from '$lib/core/results';
import { m } from '$lib/paraglide/messages';
import type { Locale } from '$lib/paraglide/runtime';
import { reportRunKey } from '$lib/core/names';
import { localList } from './local-format';

/**
 * The report without its simulated runs when real runs are shown too and `mix` is off;
 * `hidden` counts the runs left out. With only simulated (or only real) runs nothing is hidden.
 */
export function drawnReport(
	report: ResultsReport,
	simulated: (runKey: string) => boolean,
	mix: boolean
): { report: ResultsReport; hidden: number; mixed: boolean } {
	const flags = report.runs.map((r) => simulated(reportRunKey(r)));
	const mixed = flags.includes(true) && flags.includes(false);
	if (!mixed || mix) return { report, hidden: 0, mixed };
	const runs = report.runs.filter((_, i) => !flags[i]);
	const real = new Set(runs.map((r) => `${r.model}\u0000${r.run_id}`));
	const groups = report.groups.filter((g) =>
		g.run_ids.every((id) => real.has(`${g.model}\u0000${id}`))
	);
	return { report: { ...report, runs, groups }, hidden: report.runs.length - runs.length, mixed };
}

/**
 * For each model shown in more than one group: a sentence naming the manifest fields in which
 * its groups differ (why they are not averaged together).
 */
export function groupDifferences(
	report: ResultsReport,
	manifestOf: (runKey: string) => Manifest | undefined,
	locale?: Locale
): string[] {
	const out: string[] = [];
	const byModel = new Map<string, ResultsReport['groups']>();
	for (const g of report.groups) byModel.set(g.model, [...(byModel.get(g.model) ?? []), g]);
	for (const [model, groups] of byModel) {
		if (groups.length < 2) continue;
		const firstOf = (g: ResultsReport['groups'][number]) => {
			const run = report.runs.find((r) => r.model === g.model && r.run_id === g.run_ids[0]);
			return run ? manifestOf(reportRunKey(run)) : undefined;
		};
		const base = firstOf(groups[0]);
		if (!base) continue;
		for (const other of groups.slice(1)) {
			const manifest = firstOf(other);
			if (!manifest) continue;
			const fields = differingFields(base, manifest).map((f) => fieldName(f, locale));
			const what = { model, a: groups[0].run_ids.join(', '), b: other.run_ids.join(', ') };
			out.push(
				fields.length
					? m.results_group_differ({ ...what, fields: localList(fields, locale) }, { locale })
					: m.results_group_differ_unknown(what, { locale })
			);
		}
	}
	return out;
}

type Say = (inputs: Record<string, never>, options: { locale?: Locale }) => string;
const FIELD_NAMES: Record<string, Say> = {
	'dataset.sha256': m.results_field_dataset,
	'dataset.selected_case_numbers': m.results_field_cases,
	code_sha256: m.results_field_code,
	prompts_sha256: m.results_field_prompts,
	'settings.temperature': m.results_field_temperature,
	'settings.judge_temperature': m.results_field_judge_temperature,
	'settings.max_tokens': m.results_field_max_tokens,
	simulated: m.results_field_simulated
};
const ROLE_NAMES: Record<string, Say> = {
	'models.evaluated': m.run_role_evaluated,
	'models.user': m.run_role_user,
	'models.judge': m.run_role_judge
};

/**
 * A comparability field (`core/metrics/groups.ts`) as a reader calls it, in `locale`: never the
 * manifest path (`models.judge` is "judge model", `dataset.selected_case_numbers` "selected cases").
 */
export function fieldName(field: string, locale?: Locale): string {
	const o = { locale };
	const role = ROLE_NAMES[field];
	if (role) return m.results_field_model({ role: role({}, o) }, o);
	return FIELD_NAMES[field]?.({}, o) ?? field;
}

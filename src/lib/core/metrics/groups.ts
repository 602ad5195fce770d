/**
 * Comparable runs (PROTOCOL.md §5): only these are averaged together. Endpoints, the operational
 * settings (timeout, retries, concurrency), the tool version and timestamps are deliberately
 * left out: they do not change results.
 */
import { canonicalJson } from '../hash';
import { caseKey } from '../record-names';
import type { Manifest } from '../records';

/**
 * What must match for two runs to be averaged: dataset sha256, selected cases (in order),
 * code_sha256, prompts_sha256, all three model ids, the result-affecting settings (temperature,
 * judge temperature, max tokens), and whether the offline simulated provider produced the run. `code_sha256` already covers the prompt pack;
 * `prompts_sha256` is compared too so a hand-edited manifest cannot slip through, and a
 * simulated run is never averaged with a real one.
 */
export function comparabilityKey(m: Manifest): string {
	return canonicalJson(comparabilityFields(m));
}

/**
 * The manifest fields that must match, by their manifest path: the one list behind both
 * `comparabilityKey` and the messages that name what differs.
 */
export function comparabilityFields(m: Manifest): Record<string, unknown> {
	const { temperature, judge_temperature, max_tokens } = m.settings;
	return {
		'dataset.sha256': m.dataset.sha256,
		'dataset.selected_case_numbers': m.dataset.selected_case_numbers.map(caseKey),
		code_sha256: m.code_sha256,
		prompts_sha256: m.prompts_sha256,
		'models.evaluated': m.models.evaluated,
		'models.user': m.models.user,
		'models.judge': m.models.judge,
		'settings.temperature': temperature,
		'settings.judge_temperature': judge_temperature,
		'settings.max_tokens': max_tokens,
		simulated: m.simulated
	};
}

/** The comparability fields in which two manifests differ, in manifest order. */
export function differingFields(a: Manifest, b: Manifest): string[] {
	const fa = comparabilityFields(a);
	const fb = comparabilityFields(b);
	return Object.keys(fa).filter((k) => canonicalJson(fa[k]) !== canonicalJson(fb[k]));
}

/** Runs split into groups of comparable runs, groups and members in first-seen order. */
export function groupComparable<R extends { manifest: Manifest }>(runs: readonly R[]): R[][] {
	const groups = new Map<string, R[]>();
	for (const run of runs) {
		const key = comparabilityKey(run.manifest);
		const group = groups.get(key);
		if (group) group.push(run);
		else groups.set(key, [run]);
	}
	return [...groups.values()];
}

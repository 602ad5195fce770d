/**
 * How the Run page says what differs between a saved run and the run its form would start, in
 * the browser's words (the Dataset, Models and Prompts pages, the Limit field), before Start.
 * Values come from a saved manifest, which an imported bundle may have written: each is
 * escaped and clipped before it is shown.
 */
import type { ManifestDifference } from '$lib/core/store/resume';
import { clipText } from '$lib/core/text/clip';
import { escapeControl } from '$lib/core/text/escape-control';
import { m } from '$lib/paraglide/messages';
import { roleName } from './role-names';

/** Longest value quoted in one line. */
const MAX_VALUE = 120;

export interface DifferenceNames {
	/** The dataset file the saved run was started on, when the browser remembers it. */
	datasetName: string | null;
	/** The file loaded now. */
	loadedName: string;
}

function text(value: unknown): string {
	const raw = typeof value === 'string' ? value : JSON.stringify(value ?? null);
	return clipText(escapeControl(raw), MAX_VALUE);
}

const sha = (value: unknown) => text(value).slice(0, 12);

/**
 * One sentence per difference. A different dataset file explains its other case count,
 * selection and history fields, so those are left out then.
 */
export function describeDifferences(
	differences: readonly ManifestDifference[],
	names: DifferenceNames
): string[] {
	const otherFile = differences.some((d) => d.field === 'dataset.sha256');
	const lines: string[] = [];
	for (const d of differences) {
		const [head, tail] = d.field.split('.', 2) as [string, string | undefined];
		if (otherFile && head === 'dataset' && d.field !== 'dataset.sha256') continue;
		lines.push(describe(d, head, tail, names));
	}
	return lines;
}

function describe(
	d: ManifestDifference,
	head: string,
	tail: string | undefined,
	names: DifferenceNames
): string {
	const saved = text(d.saved);
	const now = text(d.now);
	switch (d.field) {
		case 'dataset.sha256': {
			const values = { saved: sha(d.saved), now: sha(d.now), now_file: text(names.loadedName) };
			return names.datasetName
				? m.run_diff_dataset_named({ ...values, file: text(names.datasetName) })
				: m.run_diff_dataset(values);
		}
		case 'dataset.n_cases':
			return m.run_diff_n_cases({ saved, now });
		case 'dataset.selected_case_numbers':
			return selection(d.saved as string[], d.now as string[]);
		case 'code_sha256':
			return m.run_diff_code({ saved: sha(d.saved), now: sha(d.now) });
		case 'prompts_sha256':
			return m.run_diff_prompts({ saved: sha(d.saved), now: sha(d.now) });
		case 'simulated':
			return d.saved === true ? m.run_diff_simulated_saved() : m.run_diff_simulated_now();
	}
	if (head === 'dataset' && tail === 'history_fields') {
		return m.run_diff_history({ which: text(d.field.split('.')[2]), saved, now });
	}
	if (head === 'models' && tail) return m.run_diff_model({ role: roleName(tail), saved, now });
	if (head === 'endpoints' && tail)
		return m.run_diff_endpoint({ role: roleName(tail), saved, now });
	if (head === 'settings' && tail) return m.run_diff_setting({ name: text(tail), saved, now });
	return m.run_diff_other({ field: text(d.field), saved, now });
}

function selection(saved: readonly string[], now: readonly string[]): string {
	if (saved.length !== now.length) {
		return m.run_diff_selection({ saved: saved.length, now: now.length });
	}
	const at = saved.findIndex((c, i) => c !== now[i]);
	return m.run_diff_selection_other({
		position: at + 1,
		saved: text(saved[at]),
		now: text(now[at])
	});
}

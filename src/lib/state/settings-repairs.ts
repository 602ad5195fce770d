/**
 * What the Models page says of stored numbers set back to their default on reading
 * (`readStoredModelSettings` of `stored-settings.ts`). Apart from `model-settings.ts`, which every page loads, so its
 * words load with the Models page only.
 */
import type { Settings } from '$lib/core/run-config';
import { m } from '$lib/paraglide/messages';
import { GENERATION_LABELS, numberProblem, type SettingsRepair } from './model-settings';

/** What the page says of a repair: the field's range problem, the stored and the used value. */
export function repairMessage(r: SettingsRepair): string {
	const key = r.field === 'concurrency' ? 'concurrency' : (r.field.slice(11) as keyof Settings);
	const label = key === 'concurrency' ? m.models_concurrency() : GENERATION_LABELS[key]();
	// The range problem the form shows for a bad value (NaN is outside every range).
	const problem = numberProblem(label, Number.NaN, key) ?? '';
	return m.models_stored_repaired({ stored: r.stored, problem, used: r.used });
}

/** The file name of an export: the run for one run, else a timestamp (local time, to the minute). */
import type { RunKey } from '$lib/core/layout';

export function exportFileName(runs: readonly RunKey[], now: number): string {
	if (runs.length === 1) return `lexpilot-${runs[0].runId}-${runs[0].modelDir}.zip`;
	const d = new Date(now);
	const p = (n: number) => String(n).padStart(2, '0');
	const stamp = `${d.getFullYear()}${p(d.getMonth() + 1)}${p(d.getDate())}-${p(d.getHours())}${p(d.getMinutes())}`;
	return `lexpilot-runs-${stamp}.zip`;
}

/** The `calls` object of a run's report: totals of its call log, when it has one. */
import { parseCallLog } from '../calls/log';
import { callTotals, type CallTotals } from '../calls/totals';
import { callLogPath, type RunKey } from '../layout';
import { describePath, type LayoutSource } from './source';

/**
 * Totals of the run's `calls.jsonl`, or null when the run has none (runs made before the log
 * existed, bundles of other tools). A log that cannot be read does not stop the report (no figure
 * depends on it): `calls` is null and `note` says which file and line, so the run is not taken
 * for one without a log.
 */
export async function readRunCalls(
	source: LayoutSource,
	run: RunKey,
	listed: ReadonlySet<string>
): Promise<{ calls: CallTotals | null; note: string | null }> {
	const path = callLogPath(run);
	if (!listed.has(path)) return { calls: null, note: null };
	try {
		const entries = parseCallLog(await source.read(path), describePath(source, path));
		return { calls: callTotals(entries), note: null };
	} catch (e) {
		return {
			calls: null,
			note: `the call log could not be read, so call totals are not shown: ${(e as Error).message}`
		};
	}
}

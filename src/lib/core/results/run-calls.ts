/** The `calls` object of a run's report: totals of its call log, when it has one. */
import { parseCallLog } from '../calls/log';
import { callTotals, type CallTotals } from '../calls/totals';
import { callLogPath, type RunKey } from '../layout';
import { saidOf } from '../errors';
import { coded, type CoreText } from '../said';
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
): Promise<{ calls: CallTotals | null; note: CoreText | null }> {
	const path = callLogPath(run);
	if (!listed.has(path)) return { calls: null, note: null };
	try {
		const label = describePath(source, path);
		const calls = source.callTotals
			? await source.callTotals(run, label)
			: callTotals(parseCallLog(await source.read(path), label));
		return { calls, note: null };
	} catch (e) {
		// The reader's own code when it has one; a call-log entry's schema error is English only.
		const said = saidOf(e);
		const note =
			said?.length === 1
				? coded('note_calls_unreadable', {}, { detail: said })
				: coded('note_calls_unreadable', { detail: (e as Error).message });
		return { calls: null, note };
	}
}

/**
 * A pass logs a call when it first uses its answer (`rounds.ts`). A process killed in the middle
 * of that pass has logged some of the round's calls and not the rest; the pass that starts again
 * uses every answer of the round once more. Its call log skips a line the log already holds from
 * the cut pass: the same line less its timing, started after the round was sent (the pass before
 * the round logged earlier rounds' calls, all started before it was sent).
 */
import { isCallLog, type CallLog } from '../calls/types';
import type { CallLogEntry } from '../calls/schema';
import { forwarding } from '../forward';
import type { RunKey } from '../names';

/** What tells one start or moment from another, not which call it was. */
const TIMING = new Set(['session', 'seq', 'started_at', 'latency_ms', 'delay_ms']);

/** A line's call, less timing, its keys sorted (a stable text for equal calls). */
function callOf(value: unknown): string {
	const strip = (v: unknown): unknown => {
		if (Array.isArray(v)) return v.map(strip);
		if (v === null || typeof v !== 'object') return v;
		const keys = Object.keys(v).filter((k) => !TIMING.has(k));
		return Object.fromEntries(
			keys.sort().map((k) => [k, strip((v as Record<string, unknown>)[k])])
		);
	};
	return JSON.stringify(strip(value));
}

/**
 * The call log a pass after round `round` writes through: `log` less the lines it already holds
 * from a cut pass (started after `sentAt`, the round's `sent_at`), each skipped once.
 */
export async function logOnce(log: unknown, run: RunKey, sentAt: string): Promise<CallLog | null> {
	if (!isCallLog(log)) return null;
	let saved: CallLogEntry[];
	try {
		saved = await log.readCalls(run);
	} catch {
		// A log, not a checkpoint: one that cannot be read is written on as before.
		return log;
	}
	const held = new Map<string, number>();
	for (const entry of saved) {
		if (entry.started_at <= sentAt) continue;
		const call = callOf(entry);
		held.set(call, (held.get(call) ?? 0) + 1);
	}
	if (held.size === 0) return log;
	return forwarding(log, {
		appendCall: async (key: RunKey, line: string) => {
			const call = callOf(JSON.parse(line));
			const n = held.get(call) ?? 0;
			if (n > 0) held.set(call, n - 1);
			else await log.appendCall(key, line);
		}
	});
}

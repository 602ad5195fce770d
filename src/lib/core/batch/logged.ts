/**
 * The calls a run's log already holds, as custom_ids: what a pass cut short (a tab closed, Stop,
 * a crash) logged before it stopped, so the pass that starts again logs only the others
 * (rounds.ts; PROTOCOL.md §5: each call once). An id is recomputed from a line's stage, case,
 * task and prompt, its occurrence (the count of earlier lines of that prompt in the case and
 * stage) and its last attempt. Only batch lines count (every attempt took 0 ms: answered from a
 * round, not over the network); a line whose prompt was cut to its bound cannot be recomputed
 * and is left out (its call is logged again), as is a log that cannot be read.
 */
import { isCallLog } from '../calls/types';
import type { RunKey } from '../names';
import { customId } from './custom-id';

export async function loggedIds(store: unknown, run: RunKey): Promise<Set<string>> {
	const ids = new Set<string>();
	if (!isCallLog(store)) return ids;
	const seen = new Map<string, number>();
	let lines: Awaited<ReturnType<typeof store.readCalls>>;
	try {
		lines = await store.readCalls(run);
	} catch {
		return ids; // a log, not a checkpoint: one that cannot be read never stops the run
	}
	for (const line of lines) {
		if (!line.attempts.every((a) => a.latency_ms === 0)) continue;
		if (line.truncated?.includes('prompt')) continue;
		const same = [line.stage, line.case_number, line.task, line.prompt].join('\0');
		const occurrence = seen.get(same) ?? 0;
		seen.set(same, occurrence + 1);
		const attempt = line.attempts.at(-1)?.attempt ?? 1;
		ids.add(
			await customId({
				run,
				stage: line.stage,
				caseNumber: String(line.case_number),
				task: line.task as Parameters<typeof customId>[0]['task'],
				prompt: line.prompt,
				occurrence,
				attempt
			})
		);
	}
	return ids;
}

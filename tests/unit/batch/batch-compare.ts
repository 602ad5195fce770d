/**
 * What a batch-mode run and the interactive run that got the same answers must share: the stage
 * files and manifest (apart from times and `mode`), and the call log apart from timing and
 * sessions. Used by the batch-run and batch-resume specs.
 */
import type { MemoryStore } from '../../../src/lib/core/store/memory-store';

/** Stage files as written; the manifest without its times and `mode`; no call log, no batch/. */
export function comparableRecords(store: MemoryStore): Map<string, string> {
	const out = new Map<string, string>();
	for (const [path, text] of store.toFiles()) {
		if (path.endsWith('calls.jsonl') || path.includes('/batch/')) continue;
		out.set(
			path,
			path.endsWith('manifest.json')
				? text.replace(/"(created_at|at)": "[^"]+"/g, '').replace(/,\s*"mode": "batch"/, '')
				: text
		);
	}
	return out;
}

/** What tells one start or moment from another, not what was asked and answered. */
const TIMING = ['session', 'seq', 'started_at', 'latency_ms', 'delay_ms'];

/** The call log's lines less timing and sessions, in a stable order. */
export function callsLessTiming(store: MemoryStore): string[] {
	const text = [...store.toFiles()].find(([p]) => p.endsWith('calls.jsonl'))?.[1] ?? '';
	return text
		.split('\n')
		.filter(Boolean)
		.map((line) => {
			const entry = JSON.parse(line);
			for (const key of TIMING) delete entry[key];
			for (const step of entry.attempts) for (const key of TIMING) delete step[key];
			return JSON.stringify(entry);
		})
		.sort();
}

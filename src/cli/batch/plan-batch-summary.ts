/**
 * The end of a batch plan on the terminal: one line per run (completed, waits for a files round,
 * failed or stopped and why); when runs wait, the `vllm run-batch` of every file of every
 * waiting round and the one `batch import` that continues the whole plan. And its exit code.
 */
import type { RunOutcome } from '../../lib/core/session';
import type { BatchSendMode } from '../../lib/core/batch/store';
import { CheckpointError, UsageError } from '../../lib/core/errors';
import { messageOf } from '../../lib/core/engine/run-errors';
import { escapeControl } from '../../lib/core/text/escape-control';
import { EXIT_WAITING } from './batch-flags';
import { nextLines, roundPaths } from './waiting-text';

/** A run's outcome with its name on the terminal and its files-mode folder. */
export type PlanBatchRow = RunOutcome & { label: string; folder: string };

export const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

export function planBatchSummary(
	rows: readonly PlanBatchRow[],
	outputRoot: string,
	mode: BatchSendMode,
	args: readonly string[],
	/** Ctrl+C: the runs that did not end were stopped, not failed. */
	aborted = false
): string {
	const done = rows.filter((r) => r.status === 'done').length;
	const waiting = rows.flatMap((r) => (r.waiting ? [r.waiting] : []));
	const stopped = rows.length - done - waiting.length;
	const lines = [
		`Plan of ${plural(rows.length, 'run')} in batch mode (${mode}) under ${escapeControl(outputRoot)}: ` +
			`${done} completed, ${waiting.length} waiting for their outputs, ${stopped} stopped`
	];
	const paths = [];
	for (const row of rows) {
		const name = `  ${row.label}`;
		if (row.status === 'failed' || row.status === 'stopped') {
			lines.push(...stoppedLines(name, aborted ? 'stopped' : 'failed', row.error));
		} else if (row.status === 'done') {
			const { result, rounds, longestChain } = row;
			lines.push(
				`${name}: completed, ${plural(result!.stages[0]?.total ?? 0, 'case')} ` +
					`(${plural(rounds!, 'round')}; longest chain of dependent calls ${longestChain})`
			);
		} else {
			const round = row.waiting!;
			paths.push(...roundPaths(round, row.folder));
			lines.push(
				`${name}: waits for round ${round.round}'s outputs: ${plural(round.requests, 'request')} in ` +
					`${plural(round.files.length, 'file')} under ${escapeControl(row.folder)}/round-${round.round}`
			);
		}
	}
	if (paths.length > 0) {
		lines.push('', ...nextLines(paths, args));
		lines.push(
			`Exit code ${EXIT_WAITING}: ${plural(waiting.length, 'run')} of the plan wait; one import of ` +
				'every output file goes on with all of them.'
		);
	}
	return `${lines.map((l) => escapeControl(l)).join('\n')}\n`;
}

/** `name: status: why`, and the error's further lines indented below it. */
export function stoppedLines(name: string, status: string, error: unknown): string[] {
	const [head, ...more] = messageOf(error).split('\n');
	const rest = more.map((line) => `      ${escapeControl(line)}`);
	return [`${name}: ${status}: ${escapeControl(head)}`, ...rest];
}

/**
 * A plan's exit code: 0 every run completed; 2 a run was refused (usage, saved data); 1 one
 * failed; else 3 when a run waits (batch files mode).
 */
export function planExit(outcomes: readonly RunOutcome[]): number {
	const errors = outcomes.flatMap((o) =>
		o.status === 'failed' || o.status === 'stopped' ? [o.error] : []
	);
	if (errors.some((e) => e instanceof UsageError || e instanceof CheckpointError)) return 2;
	if (errors.length > 0) return 1;
	return outcomes.every((o) => o.status === 'done') ? 0 : EXIT_WAITING;
}

/**
 * A run in batch mode from the CLI (`run --batch provider|files`, and `batch import`, which goes
 * on after importing): the engine's inputs as for an interactive run, a round sender, and what
 * the user reads: each round as it goes, then the summary (exit 0) or, in files mode, the files
 * written and what to run next (exit 3).
 */
import { providerSender } from '../../lib/core/batch/provider';
import type { BatchRunOptions, RoundSender } from '../../lib/core/batch/rounds';
import { filesSender } from '../../lib/core/batch/files-sender';
import { runBatchFolder } from '../../lib/core/batch/file-names';
import type { BatchFileLimits } from '../../lib/core/batch/limits';
import type { BatchRoundFile, BatchSendMode, BatchState } from '../../lib/core/batch/store';
import { failedCount, type RoundOutcome } from '../../lib/core/batch/outcome';
import type { StageName } from '../../lib/core/engine/types';
import { UsageError } from '../../lib/core/errors';
import { manifestPath, modelDirName } from '../../lib/core/layout';
import type { RunStagesResult } from '../../lib/core/engine/open-engine';
import type { ModelClient } from '../../lib/core/model/types';
import { escapeControl } from '../../lib/core/text/escape-control';
import { roundFileOpener } from '../../lib/adapters/round-files';
import { join } from 'node:path';
import { engineInputs, type StageArgs, type StageInputs } from '../commands/stage';
import type { CliIo } from '../types';
import { runOne, type OneRunEnd } from '../session/one-run';
import { EXIT_WAITING } from './batch-flags';
import { plural } from './plan-batch-summary';
import { waitingText } from './waiting-text';

/** The engine never calls it: batch passes bring their own client. */
const NO_CLIENT: ModelClient = {
	simulated: false,
	complete: () => Promise.reject(new Error('batch mode calls through its rounds'))
};

export interface BatchCli {
	parsed: StageArgs;
	inputs: StageInputs;
	stages: readonly StageName[];
	mode: BatchSendMode;
	/** The batch folder (files mode). */
	folder: string;
	/** Input-file limits (`--batch-max-tokens`). @default DEFAULT_BATCH_LIMITS */
	limits?: BatchFileLimits;
	/** The run's arguments after `run`, for the command to continue with. */
	args: readonly string[];
}

export async function batchRunOptions(cli: BatchCli, io: CliIo): Promise<BatchRunOptions> {
	if (cli.parsed.simulated) {
		throw new UsageError(
			'--batch needs real endpoints; --simulated answers offline without rounds'
		);
	}
	const { store, ...engine } = engineInputs(cli.parsed, cli.inputs, NO_CLIENT, io);
	return { ...engine, store: store as BatchRunOptions['store'], stages: cli.stages };
}

/** The run's key, its files-mode folder and its round sender (with this run's endpoints and keys). */
export async function runSender(cli: BatchCli, options: BatchRunOptions, io: CliIo) {
	const run = { runId: options.runId, modelDir: await modelDirName(options.models.evaluated) };
	const folder = join(cli.folder, ...runBatchFolder(run).split('/'));
	const pollMs = Number(io.env.LEXPILOT_BATCH_POLL_MS) || undefined;
	const sender: RoundSender =
		cli.mode === 'provider'
			? providerSender({
					run,
					endpoints: cli.parsed.options.roles,
					retry: { retries: options.settings?.retries },
					pollMs,
					maxPollMs: pollMs && pollMs * 8,
					limits: cli.limits
				})
			: filesSender(roundFileOpener(folder), cli.limits);
	return { run, folder, sender };
}

/** What Ctrl+C leaves: batches already made keep running, and the saved ids find them again. */
export const STOPPED_TEXT =
	'stopped: what is saved stays, and a round already sent stays with the provider; ' +
	'the same command polls it instead of sending it again\n';

export async function runBatchCli(cli: BatchCli, io: CliIo): Promise<number> {
	const options = await batchRunOptions(cli, io);
	const { folder, sender } = await runSender(cli, options, io);
	let out: OneRunEnd;
	try {
		out = await runOne(
			{
				...options,
				mode: { kind: 'batch', stages: options.stages, sender, onRound: roundPrinter(io) }
			},
			{ signal: io.signal },
			io
		);
	} catch (e) {
		if (!io.signal.aborted) throw e;
		io.stderr(STOPPED_TEXT);
		return 1;
	}
	if (out.capped) return out.code;
	const { outcome } = out;
	if (outcome.waiting) {
		io.stdout(waitingText(outcome.waiting, folder, cli.args));
		return EXIT_WAITING;
	}
	for (const w of out.result.warnings) io.stderr(`warning: ${escapeControl(w)}\n`);
	io.stdout(batchSummary(out.result, cli.parsed.options.outputRoot));
	io.stdout(
		`Batch: ${outcome.rounds} rounds; longest chain of dependent calls ${outcome.longestChain}\n`
	);
	return 0;
}

/** The summary of a finished batch run (every pass resumes what the one before saved). */
function batchSummary(result: RunStagesResult, outputRoot: string): string {
	const { run } = result;
	const lines = [
		`Completed run ${escapeControl(run.runId)} of ${escapeControl(result.manifest.models.evaluated)} in batch mode under ${escapeControl(outputRoot)}`,
		...result.stages.map((s) => `  ${s.stage}: ${s.total} cases`),
		'Files:',
		...[manifestPath(run), ...result.stages.flatMap((s) => s.files)].map((f) => `  ${f}`)
	];
	return `${lines.map((l) => escapeControl(l)).join('\n')}\n`;
}

/**
 * The failed requests of a round by kind, one line each under `prefix`: the count, the kind (an
 * HTTP status, a batch error code, a body that is not a chat completion) and the provider's first
 * message of that kind, quoted and escaped; `lead` starts the first line. Empty when none failed.
 */
export function failedText(failed: RoundOutcome['failed'], lead: string, prefix = ''): string {
	if (failed.length === 0) return '';
	const n = failedCount({ answers: 0, failed });
	const lines = [
		`${lead}${plural(n, 'request')} failed:`,
		...failed.map(
			(f) =>
				`${prefix}  ${f.count} × ${escapeControl(f.what)}` +
				(f.first ? `, first: ${escapeControl(JSON.stringify(f.first))}` : '')
		)
	];
	return `${lines.join('\n')}\n`;
}

/**
 * The provider's errors of a failed batch (`errors.data`, as kept: the first 5), one line each,
 * escaped, and how many more it listed. Shown by `batch status` and as a round's progress.
 */
export function providerErrorLines(f: BatchRoundFile): string[] {
	const lines: string[] = [];
	const errors = f.errors ?? [];
	const total = Math.max(f.errors_total ?? 0, errors.length);
	for (const [i, e] of errors.entries()) {
		const words = [e.code, e.message].filter((w) => w).join(': ') || '(no message)';
		const at = e.line === null ? '' : ` (input line ${e.line})`;
		lines.push(`provider error ${i + 1} of ${total}: ${escapeControl(words)}${at}`);
	}
	if (total > errors.length) lines.push(`… ${total - errors.length} more provider errors not kept`);
	return lines;
}

/**
 * One line per change of a round: sent, a batch's status, answered; `prefix` names the run. A
 * round seen out and then answered is followed by its failed requests by kind, if any.
 */
export function roundPrinter(io: CliIo, prefix = ''): (state: BatchState) => void {
	const seen = new Set<string>();
	const out = new Set<number>();
	return (state) => {
		for (const r of state.rounds) {
			const answered = r.status === 'answered' && out.delete(r.round);
			if (r.status !== 'answered') out.add(r.round);
			// A provider's words: escaped, so a status with a line break cannot forge a line.
			const statuses = r.files.map((f) => escapeControl(f.status ?? '')).join(',');
			if (r.files.length === 0) continue;
			const line =
				`batch: round ${r.round} ${r.status}, ${r.requests} requests in ${plural(r.files.length, 'file')}` +
				(statuses.replace(/,/g, '') ? ` (${statuses})` : '');
			if (seen.has(line)) continue;
			seen.add(line);
			io.stderr(`${prefix}${line}\n`);
			// A failed batch's reasons, once each, under the line that first shows them.
			for (const f of r.files) {
				const id = escapeControl(f.batch_id ?? f.name);
				for (const error of providerErrorLines(f)) {
					const said = `batch: round ${r.round}: batch ${id}: ${error}`;
					if (seen.has(said)) continue;
					seen.add(said);
					io.stderr(`${prefix}${said}\n`);
				}
			}
			if (answered && r.outcome) {
				io.stderr(failedText(r.outcome.failed, `${prefix}batch: round ${r.round}: `, prefix));
			}
		}
	};
}

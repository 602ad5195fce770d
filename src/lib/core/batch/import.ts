/**
 * Files mode's way back: the output files of the waiting round, in the OpenAI / vLLM format, for
 * one run or for every run of a plan at once (each line goes to the run its custom_id names). The
 * rounds' requests are recomputed by replay passes (nothing logged, nothing sent); every line is
 * checked by {@link BatchOutputReader} (unknown, duplicated, other-run ids and torn files refused
 * with file and line) before anything is saved; then each run's answers are appended and its
 * round marked answered. The caller runs `runBatch` again to go on.
 */
import { saidOf, UsageError } from '../errors';
import type { RunKey } from '../names';
import { coded } from '../said';
import type { PendingRequest } from './client';
import { runHash } from './custom-id';
import type { ByteSource } from '../jsonl';
import { BatchOutputReader, type BatchAnswer } from './output';
import { batchPass, batchRunKey, type BatchRunOptions } from './pass';
import { askedBefore, knownAnswers, reportedRound } from './known-answers';
import { roundOutcome, type RoundOutcome } from './outcome';
import { openRound } from './rounds';
import { noAnswer } from './sender';
import type { BatchRound, BatchState, SavedBatchAnswer } from './store';

/**
 * An output file to import: its name (for messages) and its bytes, read a line at a time (the
 * CLI: a read stream over the file; the page: `File.stream()`), never as one string.
 */
export interface OutputFile {
	name: string;
	/** A fresh source of the file's bytes; called once per import. */
	open: () => ByteSource;
}

export interface ImportOptions {
	/** Requests no file answers count as failed (retried in a later round). @default refused */
	allowMissing?: boolean;
}

export interface ImportResult {
	run: RunKey;
	/** Requests answered with a chat completion (error lines and failed statuses not counted). */
	answers: number;
	/** The round answered now; when nothing was ({@link imported} false), the last one taken before. */
	round: number;
	missing: number;
	/** The failed requests by kind (HTTP status, batch error code), with their first message. */
	failed: RoundOutcome['failed'];
	/** False when the files held only lines this run had taken before: nothing saved. */
	imported: boolean;
	/** Lines of the files whose requests this run had taken before (an import run again), passed over. */
	already: number;
	/** The rounds those lines were taken in. */
	alreadyRounds: number[];
}

/** A run of the plan as saved: its state and every answer it took. */
interface Saved {
	options: BatchRunOptions;
	run: RunKey;
	state: BatchState | null;
	answers: SavedBatchAnswer[];
}

/** A run whose files round is out, with the requests a replay pass recomputed. */
interface Waiting extends Saved {
	state: BatchState;
	round: BatchRound;
	pending: readonly PendingRequest[];
}

async function savedRun(options: BatchRunOptions): Promise<Saved> {
	const { store } = options;
	const run = await batchRunKey(options);
	const state = await store.readBatchState(run);
	return { options, run, state, answers: state ? await store.readBatchAnswers(run) : [] };
}

/** The round out with its files written, if any. */
function sentRound(state: BatchState | null): BatchRound | null {
	const round = state && openRound(state);
	return round && round.files.length > 0 ? round : null;
}

async function waitingRound(saved: Saved): Promise<Waiting | null> {
	const { options, state } = saved;
	const round = sentRound(state);
	if (!state || !round || round.mode !== 'files') return null;
	const answers = knownAnswers(saved.answers, round.round);
	const pass = await batchPass(
		options,
		answers,
		() => false,
		askedBefore(answers, reportedRound(state))
	);
	return pass.done ? null : { ...saved, state, round, pending: pass.pending };
}

/** One run's import: refused (`batch_nothing_waiting`) when no files round of it is out. */
export async function importBatchOutputs(
	options: BatchRunOptions,
	files: readonly OutputFile[],
	how: ImportOptions = {}
): Promise<ImportResult> {
	const [result] = await importPlanBatchOutputs([options], files, how);
	return result;
}

/**
 * A plan's import: the runs without a files round out are passed over, and so are those the
 * files answer nothing of (they stay waiting); refused when no run has a round out. Returns one
 * result per run that took answers, in the plan's order.
 *
 * Importing again is harmless (issue 32): a line whose request a run of the plan already took
 * in an earlier round (the same import run again after a crash, or a plan import stopped between
 * two runs' saves) is passed over, and that run's result says so (`imported` false); the lines
 * of the runs still waiting are imported as usual.
 */
export async function importPlanBatchOutputs(
	runs: readonly BatchRunOptions[],
	files: readonly OutputFile[],
	how: ImportOptions = {}
): Promise<ImportResult[]> {
	const saved: Saved[] = [];
	for (const options of runs) saved.push(await savedRun(options));
	const waiting: Waiting[] = [];
	for (const s of saved) {
		const w = await waitingRound(s);
		if (w) waiting.push(w);
	}
	// Each request a run took in a round no longer out, with the round it came back in.
	const taken = new Map<string, { index: number; round: number }>();
	for (const [index, s] of saved.entries()) {
		for (const a of knownAnswers(s.answers, sentRound(s.state)?.round ?? null).values()) {
			taken.set(a.customId, { index, round: a.round ?? 0 });
		}
	}
	const nothingWaiting = () =>
		new UsageError([coded('batch_nothing_waiting', { run: runs.map((r) => r.runId).join(', ') })]);
	if (waiting.length === 0 && taken.size === 0) throw nothingWaiting();
	const reader = new BatchOutputReader(
		new Map(waiting.flatMap((w) => w.pending.map((p) => [p.customId, p.body.max_tokens]))),
		new Set(await Promise.all(waiting.map((w) => runHash(w.run)))),
		new Set(taken.keys())
	);
	let got: Map<string, BatchAnswer>;
	try {
		got = new Map();
		for (const f of files) {
			for (const a of await reader.read(f.open(), f.name)) got.set(a.customId, a);
		}
	} catch (e) {
		// With no round out, a line not taken before was never asked: say what is wrong.
		const code = saidOf(e)?.[0]?.code;
		if (waiting.length === 0 && (code === 'batch_id_unknown' || code === 'batch_id_other_run'))
			throw nothingWaiting();
		throw e;
	}
	const skipped = reader.skipped();
	if (waiting.length === 0 && skipped.length === 0) throw nothingWaiting();
	// A run the files answer nothing of is passed over, still waiting: its outputs may come in a
	// later import (each model on its own node). With nothing answered at all, all of them count,
	// unless the files are of rounds taken before (an import run again): then none does.
	const answered = waiting.filter((w) => w.pending.some((p) => got.has(p.customId)));
	const importing = answered.length > 0 || skipped.length > 0 ? answered : waiting;
	const missing = new Set(
		importing.flatMap((w) => w.pending.map((p) => p.customId).filter((id) => !got.has(id)))
	);
	if (missing.size > 0 && !how.allowMissing) {
		const first = importing.find((w) => w.pending.some((p) => missing.has(p.customId)))!;
		throw new UsageError([
			coded('batch_import_missing', {
				round: first.round.round,
				count: missing.size,
				total: importing.reduce((n, w) => n + w.pending.length, 0)
			})
		]);
	}
	const before = saved.map(() => ({ lines: 0, rounds: new Set<number>() }));
	for (const id of skipped) {
		const { index, round } = taken.get(id)!;
		before[index].lines++;
		before[index].rounds.add(round);
	}
	const results: ImportResult[] = [];
	for (const [index, s] of saved.entries()) {
		const already = before[index].lines;
		const alreadyRounds = [...before[index].rounds].sort((a, b) => a - b);
		const w = importing.find((i) => i.run === s.run);
		if (!w) {
			if (already === 0) continue;
			const round = alreadyRounds.at(-1)!;
			results.push({
				run: s.run,
				answers: 0,
				round,
				missing: 0,
				failed: [],
				imported: false,
				already,
				alreadyRounds
			});
			continue;
		}
		const { options, run, state, round, pending } = w;
		const answers: SavedBatchAnswer[] = pending.map((p) => ({
			...(got.get(p.customId) ?? noAnswer(p.customId)),
			round: round.round
		}));
		// Unanswered requests are counted apart (`missing`), not as failed lines of the files.
		const outcome = roundOutcome(answers.filter((a) => got.has(a.customId)));
		await options.store.appendBatchAnswers(run, answers);
		await options.store.writeBatchState(run, {
			version: 1,
			rounds: state.rounds.map((r) =>
				r.round === round.round ? { ...r, status: 'answered', outcome: roundOutcome(answers) } : r
			)
		});
		results.push({
			run,
			answers: outcome.answers,
			round: round.round,
			missing: pending.filter((p) => missing.has(p.customId)).length,
			failed: outcome.failed,
			imported: true,
			already,
			alreadyRounds
		});
	}
	return results;
}

/** An output file already in memory (a test's, or one a caller holds anyway) as an import reads it. */
export function outputText(name: string, text: string): OutputFile {
	return { name, open: () => text };
}

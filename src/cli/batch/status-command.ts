/**
 * `lexpilot batch status [--run-id ID] [--output-root DIR]`: each batch-mode run's rounds as
 * saved (`batch/state.json`): status, time sent, requests, how many rounds the longest chain of
 * dependent calls still needs, and its files (provider mode, as last polled: batch id and
 * status, request counts, output and error file ids, the provider's errors of a failed batch).
 * Every provider string is printed escaped (a status holding a line break cannot forge a line).
 * With a plan's flags (`--model A --model B`, `--repetitions`, `--plan`): each run of the plan,
 * in its order. Read only; no lock taken.
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { FsStore } from '../../lib/adapters/fs-store';
import type { BatchRoundFile, BatchState } from '../../lib/core/batch/store';
import { openRound } from '../../lib/core/batch/rounds';
import { roundsLeft } from '../../lib/core/batch/chain';
import { runKey } from '../../lib/core/names';
import { escapeControl } from '../../lib/core/text/escape-control';
import { DEFAULT_OUTPUT_ROOT, generationOptionsFrom } from '../args';
import { modelDirName } from '../../lib/core/layout';
import { RUN_OPTIONS } from '../commands/run';
import type { StageValues } from '../commands/stage';
import { isPlan, planArgsFrom, type PlanFlags } from '../plan/plan-args';
import type { CliIo } from '../types';
import { providerErrorLines } from './run-batch';

export async function batchStatus(args: string[], io: CliIo): Promise<number> {
	const { values } = parseArgs({ args, options: RUN_OPTIONS, strict: true });
	const { model: models = [], repetitions, plan, ...flags } = values;
	const planFlags = { models, repetitions, plan };
	if (isPlan(planFlags)) return planStatus(flags, planFlags, io);
	const root = resolve(
		io.cwd,
		values['output-root'] ?? io.env.LEXPILOT_OUTPUT_ROOT ?? DEFAULT_OUTPUT_ROOT
	);
	const store = new FsStore(root);
	const runs = (await store.listRuns()).filter(
		(r) => !values['run-id'] || r.runId === values['run-id']
	);
	let shown = 0;
	for (const run of runs) {
		const state = await store.readBatchState(run);
		if (!state) continue;
		shown++;
		io.stdout(stateText(runKey(run), state));
	}
	if (shown === 0)
		io.stdout(
			`No batch-mode run${values['run-id'] ? ` named ${escapeControl(values['run-id'])}` : ''} under ${escapeControl(root)}\n`
		);
	return 0;
}

/** Each run of the plan, in the plan's order: its rounds, or that none is saved. */
async function planStatus(values: StageValues, flags: PlanFlags, io: CliIo): Promise<number> {
	const plan = await planArgsFrom(values, flags, io, generationOptionsFrom);
	const root = plan.runs[0].args.options.outputRoot;
	const store = new FsStore(root);
	io.stdout(`Plan of ${plan.runs.length} runs under ${escapeControl(root)}\n`);
	for (const run of plan.runs) {
		const key = { runId: run.runId, modelDir: await modelDirName(run.args.models.evaluated) };
		const state = await store.readBatchState(key);
		io.stdout(
			state ? stateText(runKey(key), state) : `${escapeControl(runKey(key))}: no round yet\n`
		);
	}
	return 0;
}

export function stateText(name: string, state: BatchState): string {
	const out = openRound(state);
	const lines = [
		`${escapeControl(name)}: ${state.rounds.length} rounds` +
			(out ? `, round ${out.round} ${out.status} (waiting)` : ', none out')
	];
	const ahead = chainText(state);
	if (ahead) lines.push(`  ${ahead}`);
	for (const r of state.rounds) {
		lines.push(
			`  round ${r.round}  ${r.status.padEnd(9)}  ${r.mode.padEnd(8)}  sent ${escapeControl(r.sent_at)}  ${r.requests} requests`
		);
		for (const f of r.files) {
			const batch = f.batch_id
				? `  batch ${escapeControl(f.batch_id)} ${escapeControl(f.status ?? '')}`
				: '';
			lines.push(
				`    ${escapeControl(f.name)}  ${escapeControl(f.model)}  ${f.lines} lines  ${f.bytes} bytes${batch}`
			);
			lines.push(...polledLines(f).map((l) => `      ${l}`));
		}
	}
	return `${lines.join('\n')}\n`;
}

/**
 * How many rounds the longest chain of dependent calls still needs if no request fails: from
 * the round out (itself included), else after the last round. Empty for rounds saved before
 * this was kept.
 */
function chainText(state: BatchState): string {
	const out = openRound(state);
	const last = out ?? state.rounds.at(-1);
	const n = last ? roundsLeft(last) : null;
	if (!last || n === null) return '';
	const rounds = `${n} round${n === 1 ? '' : 's'}`;
	const day = n > 0 && last.mode === 'provider' ? ` (up to ${n} × the 24 h window)` : '';
	return out
		? `longest remaining chain: ${rounds}, round ${out.round} included, if no request fails${day}`
		: `longest remaining chain: ${rounds} after round ${last.round}, if no request fails${day}`;
}

/** A provider file's counts, output and error files and errors, as last polled; escaped. */
function polledLines(f: BatchRoundFile): string[] {
	const lines: string[] = [];
	const parts: string[] = [];
	if (f.counts) {
		const { total, completed, failed } = f.counts;
		parts.push(`requests ${completed} completed, ${failed} failed of ${total}`);
	}
	if (f.output_file_id) parts.push(`output file ${escapeControl(f.output_file_id)}`);
	if (f.error_file_id) parts.push(`error file ${escapeControl(f.error_file_id)}`);
	if (parts.length > 0) lines.push(parts.join('; '));
	return [...lines, ...providerErrorLines(f)];
}

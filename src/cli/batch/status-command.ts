/**
 * `lexpilot batch status [--run-id ID] [--output-root DIR]`: each batch-mode run's rounds as
 * saved (`batch/state.json`): status, time sent, requests, and its files (provider batch ids and
 * statuses as last polled). With a plan's flags (`--model A --model B`, `--repetitions`,
 * `--plan`): each run of the plan, in its order. Read only; no lock taken.
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { FsStore } from '../../lib/adapters/fs-store';
import type { BatchState } from '../../lib/core/batch/store';
import { openRound } from '../../lib/core/batch/rounds';
import { runKey } from '../../lib/core/names';
import { escapeControl } from '../../lib/core/text/escape-control';
import { DEFAULT_OUTPUT_ROOT, generationOptionsFrom } from '../args';
import { modelDirName } from '../../lib/core/layout';
import { RUN_OPTIONS } from '../commands/run';
import type { StageValues } from '../commands/stage';
import { isPlan, planArgsFrom, type PlanFlags } from '../plan/plan-args';
import type { CliIo } from '../types';

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
	for (const r of state.rounds) {
		lines.push(
			`  round ${r.round}  ${r.status.padEnd(9)}  ${r.mode.padEnd(8)}  sent ${r.sent_at}  ${r.requests} requests`
		);
		for (const f of r.files) {
			const batch = f.batch_id ? `  batch ${f.batch_id} ${f.status ?? ''}` : '';
			lines.push(
				`    ${escapeControl(f.name)}  ${escapeControl(f.model)}  ${f.lines} lines  ${f.bytes} bytes${batch}`
			);
		}
	}
	return `${lines.join('\n')}\n`;
}

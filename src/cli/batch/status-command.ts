/**
 * `lexpilot batch status [--run-id ID] [--output-root DIR]`: each batch-mode run's rounds as
 * saved (`batch/state.json`): status, time sent, requests, and its files (provider batch ids and
 * statuses as last polled). Read only; no lock taken.
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { FsStore } from '../../lib/adapters/fs-store';
import type { BatchState } from '../../lib/core/batch/store';
import { openRound } from '../../lib/core/batch/rounds';
import { runKey } from '../../lib/core/names';
import { escapeControl } from '../../lib/core/text/escape-control';
import { DEFAULT_OUTPUT_ROOT } from '../args';
import type { CliIo } from '../types';

export async function batchStatus(args: string[], io: CliIo): Promise<number> {
	const { values } = parseArgs({
		args,
		options: { 'run-id': { type: 'string' }, 'output-root': { type: 'string' } },
		strict: true
	});
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

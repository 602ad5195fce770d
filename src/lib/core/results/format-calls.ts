/** The "Model calls" section of `results` text: call-log totals per run, stage and role. */
import { formatNumber, UNDEFINED } from '../report/format';
import type { CallGroupTotals, CallTotals } from '../calls/totals';
import { ROLES } from '../record-names';
import { runName } from '../layout';
import type { RunReport } from './report';
import { renderTable, type Align } from './text-table';

const HEADERS = [
	'Run',
	'Model',
	'Stage',
	'Role',
	'Calls',
	'Failed',
	'Retries',
	'Prompt tok',
	'Completion tok',
	'Reasoning tok',
	'Latency s'
];
const ALIGN: Align[] = HEADERS.map((_, i): Align => (i < 4 ? 'left' : 'right'));

function cells(g: CallGroupTotals): string[] {
	const unreported = g.no_usage ? ` (+${g.no_usage} n/r)` : '';
	return [
		String(g.calls),
		String(g.failed),
		String(g.retries),
		String(g.tokens.prompt) + unreported,
		String(g.tokens.completion),
		g.tokens.reasoning === null ? UNDEFINED : String(g.tokens.reasoning),
		formatNumber(g.latency_ms / 1000, 1)
	];
}

/** Rows of one run: each stage × role that made calls, then the run's total. */
export function callRows(run: RunReport, calls: CallTotals): string[][] {
	const rows: string[][] = [];
	for (const [stage, roles] of Object.entries(calls.by_stage)) {
		for (const role of ROLES) {
			const g = roles[role];
			if (g) rows.push([run.run_id, run.model, stage, role, ...cells(g)]);
		}
	}
	rows.push([run.run_id, run.model, 'all', 'all', ...cells(calls)]);
	return rows;
}

/**
 * The section's lines, or null when no run has a call log. Runs without one are named, so a
 * missing row is not read as "no calls".
 */
export function formatCalls(runs: readonly RunReport[]): string[] | null {
	const logged = runs.filter((r) => r.calls !== null);
	if (logged.length === 0) return null;
	const body = logged.flatMap((r) => callRows(r, r.calls!));
	const walls = logged.map(
		(r) =>
			`${runName(r.run_id, r.model)}: wall time ${formatNumber(r.calls!.wall_ms / 1000, 1)} s over ${r.calls!.sessions} ` +
			`session${r.calls!.sessions === 1 ? '' : 's'}`
	);
	const without = runs.filter((r) => r.calls === null).map((r) => runName(r.run_id, r.model));
	return [
		renderTable(HEADERS, body, ALIGN),
		'',
		...walls,
		...(without.length ? [`No call log: ${without.join(', ')}.`] : []),
		'Tokens as the provider reported them (n/r: calls it gave no usage for); latency is summed',
		'over calls, which overlap when cases run at once; wall time adds each session (a run and',
		'each resume) from its first call to its last. Calls of an interrupted case count too.',
		''
	];
}

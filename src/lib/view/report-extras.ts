/**
 * The HTML report's sections beyond the figures: the leaderboard (table, ranks, ties, forest
 * plot), the paired comparison shown on the page, and the provenance of every run (dataset
 * SHA-256, selected cases, models, endpoints' hosts, settings, prompt pack, simulated). Every
 * text is escaped; model ids, hosts and case numbers are hostile.
 */
import { meanSd, rankText } from '$lib/core/leaderboard/cells';
import { formatInterval, formatNumber } from '$lib/core/report/format';
import { LEADERBOARD_COLUMNS, type ColumnKey } from '$lib/core/protocol/metrics';
import type { RowCost } from '$lib/core/leaderboard/costs';
import type { Leaderboard } from '$lib/core/leaderboard/leaderboard';
import { paperTable } from '$lib/core/leaderboard/paper-table';
import type { Difference } from '$lib/core/metrics/paired';
import type { ComparisonReport, LoadedRun } from '$lib/core/results';
import { m } from '$lib/paraglide/messages';
import type { Locale } from '$lib/paraglide/runtime';
import { forestSvg } from './forest-plot';
import { columnLabel } from './leaderboard-view';
import { xmlEscape as esc } from './svg-chart';

export interface ReportExtrasInput {
	leaderboard: Leaderboard | null;
	costs: Record<string, RowCost>[];
	comparison: ComparisonReport | null;
	runs: readonly LoadedRun[];
	locale?: Locale;
}

const row = (cells: string[], head = false) =>
	`<tr>${cells.map((c, i) => (head ? `<th scope="col">${c}</th>` : i === 0 ? `<th scope="row">${c}</th>` : `<td>${c}</td>`)).join('')}</tr>`;
const table = (head: string[], body: string[][]) =>
	`<table><thead>${row(head, true)}</thead><tbody>${body.map((b) => row(b)).join('')}</tbody></table>`;

function leaderboardHtml(
	lb: Leaderboard,
	costs: Record<string, RowCost>[],
	locale?: Locale
): string {
	const o = { locale };
	return lb.boards
		.map((board, i) => {
			const rows = paperTable(board.overall, 'lca_macro_f1', costs[i] ?? null);
			const head = [
				esc(m.lb_model({}, o)),
				'n',
				...LEADERBOARD_COLUMNS.map((c) => esc(columnLabel(c)))
			];
			const body = rows.map((r) => [
				esc(r.id),
				String(r.n),
				...LEADERBOARD_COLUMNS.map((c) => {
					const cell = r.cells[c];
					const text = `${meanSd(cell)}${cell.tied_with_best ? ' †' : ''}`;
					const mean = cell.best ? `<strong>${esc(text)}</strong>` : esc(text);
					return `${mean}<br><span class="small muted">${esc(rankText(cell))} · ${esc(formatInterval(cell.ci95))}</span>`;
				})
			]);
			const title = m.lb_board(
				{ index: i + 1, sha: board.dataset_sha256.slice(0, 12), cases: board.n_cases },
				o
			);
			return `<h3 class="small">${esc(title)}</h3>${table(head, body)}<figure>${forestSvg(rows, 'lca_macro_f1', m.lb_forest_title({ metric: columnLabel('lca_macro_f1') }, o))}</figure>`;
		})
		.join('\n');
}

function differenceOf(c: ComparisonReport, column: ColumnKey): Difference | null {
	const t = c.metrics;
	const pick: Record<ColumnKey, () => Difference | undefined> = {
		lca_macro_f1: () => t.lca?.macro_f1,
		lca_acc_c: () => t.lca?.acc_c,
		lca_acc_u: () => t.lca?.acc_u,
		dcg_success: () => t.dcg?.success_rate,
		ljp_direct_qwk: () => t.ljp.direct?.qwk,
		ljp_gold_qwk: () => t.ljp.gold?.qwk,
		ljp_interaction_qwk: () => t.ljp.interaction?.qwk
	};
	return pick[column]() ?? null;
}

function comparisonHtml(c: ComparisonReport, locale?: Locale): string {
	const o = { locale };
	const body = LEADERBOARD_COLUMNS.map((column) => {
		const d = differenceOf(c, column);
		return [
			esc(columnLabel(column)),
			esc(formatNumber(d?.diff)),
			esc(formatInterval(d?.ci95)),
			esc(formatNumber(d?.p))
		];
	});
	const who = `A = ${c.a.model} · ${c.a.run_id}; B = ${c.b.model} · ${c.b.run_id}; n = ${c.n_cases}`;
	return `<p class="small">${esc(who)}</p>${table(['', esc(m.lb_report_diff({}, o)), '95% CI', esc(m.lb_report_p({}, o))], body)}`;
}

/** The host of an endpoint URL (never its path or query, which could carry a token). */
function hostOf(url: string): string {
	try {
		return new URL(url).host || url.slice(0, 80);
	} catch {
		return url.slice(0, 80);
	}
}

function provenanceHtml(runs: readonly LoadedRun[], locale?: Locale): string {
	const o = { locale };
	const head = [
		m.lb_prov_run({}, o),
		m.lb_prov_dataset({}, o),
		m.lb_prov_cases({}, o),
		m.lb_prov_models({}, o),
		m.lb_prov_hosts({}, o),
		m.lb_prov_settings({}, o),
		m.lb_prov_prompts({}, o),
		m.lb_prov_simulated({}, o)
	].map(esc);
	const body = runs.map(({ run, manifest: mf }) => {
		const cases = mf.dataset.selected_case_numbers.map(String);
		const shown =
			cases.length > 12
				? `${cases.slice(0, 12).join(', ')}, … (${cases.length})`
				: cases.join(', ');
		const { temperature, judge_temperature, max_tokens } = mf.settings;
		return [
			`${run.model} · ${run.run_id}`,
			mf.dataset.sha256,
			shown,
			`${mf.models.evaluated} · ${mf.models.user} · ${mf.models.judge}`,
			[...new Set(Object.values(mf.endpoints).map(hostOf))].join(', '),
			`temperature ${temperature}, judge_temperature ${judge_temperature}, max_tokens ${max_tokens}`,
			mf.prompts_sha256,
			mf.simulated ? m.lb_yes({}, o) : m.lb_no({}, o)
		].map((t) => `<span class="small">${esc(t)}</span>`);
	});
	return table(head, body);
}

/** The sections, each an escaped HTML fragment with its heading. */
export function reportExtras(input: ReportExtrasInput): string[] {
	const o = { locale: input.locale };
	return [
		...(input.leaderboard
			? [
					`<h2>${esc(m.lb_section({}, o))}</h2><p class="small muted">${esc(m.lb_legend({}, o))}</p>${leaderboardHtml(input.leaderboard, input.costs, input.locale)}`
				]
			: []),
		`<h2>${esc(m.results_section_paired({}, o))}</h2>${input.comparison ? comparisonHtml(input.comparison, input.locale) : `<p class="small muted">${esc(m.lb_report_compare_none({}, o))}</p>`}`,
		`<h2>${esc(m.lb_report_provenance({}, o))}</h2>${provenanceHtml(input.runs, input.locale)}`
	];
}

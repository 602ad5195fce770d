/**
 * The self-contained HTML report of the runs shown on the Results page: one file, charts as
 * inline SVG, the tables with their intervals and notes, LJP confusion matrices, and what the
 * intervals mean. No script, no external or even same-origin reference (inline <style>, a CSP
 * of `default-src 'none'`), so it opens from disk and without a network. Every text is
 * escaped: model ids, run ids and class names are hostile.
 */
import { m } from '$lib/paraglide/messages';
import { getLocale, type Locale } from '$lib/paraglide/runtime';
import type { Figure } from '$lib/view/figures';
import {
	cellText,
	ciNote,
	countsHeading,
	hasBrackets,
	tableOf,
	type TableModel
} from '$lib/view/table-format';
import { figureSvg, xmlEscape } from './svg-chart';
import { formatDate } from '$lib/core/report/format';

/** One confusion matrix: rows gold, columns predicted, in VERDICTS order. */
export interface ReportConfusion {
	/** Whose matrix: run (and class). */
	label: string;
	setup: string;
	matrix: number[][];
}

export interface HtmlReportInput {
	title: string;
	/** When the report was made (ISO 8601), printed in the report's language with its time zone. */
	generatedAt: string;
	/** One line per run shown. */
	runs: { label: string; detail: string }[];
	figures: Figure[];
	confusion: ReportConfusion[];
	/** Verdict labels in matrix order (支持, 部分支持, 驳回). */
	verdicts: readonly string[];
	/** What the two kinds of uncertainty mean, and how the intervals were made. */
	uncertainty: string[];
	notes: string[];
	/** Further sections (leaderboard, comparison, provenance), escaped HTML with their headings. */
	sections?: string[];
	/** The language of the report's own words. @default the interface's */
	locale?: Locale;
}

const esc = xmlEscape;

const STYLE = `
body{font-family:system-ui,-apple-system,'Segoe UI',Roboto,Arial,'Noto Sans CJK SC','PingFang SC','Microsoft YaHei',sans-serif;color:#1c2330;margin:2rem auto;max-width:60rem;padding:0 1rem;line-height:1.45}
h1{font-size:1.5rem;margin:0 0 .25rem}h2{font-size:1.15rem;margin:2rem 0 .5rem;border-bottom:1px solid #e6e9ee;padding-bottom:.25rem}
.muted{color:#5a6475}.small{font-size:.85rem}
figure{margin:1rem 0 1.5rem}figure svg{display:block;max-width:100%;height:auto}
@media (max-width:40rem){figure,table{display:block;overflow-x:auto}figure svg{max-width:none;width:36rem}}
figcaption{font-weight:600;margin:.25rem 0}
table{border-collapse:collapse;font-size:.85rem;margin:.5rem 0}
th,td{border-bottom:1px solid #e6e9ee;padding:.25rem .6rem;text-align:left;vertical-align:top}
td.num{text-align:right;white-space:nowrap;font-variant-numeric:tabular-nums}
ol.notes{font-size:.8rem;color:#5a6475}
.matrices{display:flex;flex-wrap:wrap;gap:1rem}
`;

function tableHtml(table: TableModel): string {
	const head = [
		`<th scope="col">${esc(table.corner)}</th>`,
		...(table.withCounts ? [`<th scope="col">${esc(countsHeading(table.locale))}</th>`] : []),
		...table.columns.map((c) => `<th scope="col" class="num">${esc(c.label)}</th>`)
	].join('');
	const rows = table.rows
		.map((row) => {
			const cells = row.cells
				.map(
					(c) =>
						`<td class="num">${esc(cellText(c, table.withSd))}${c.marks.length ? `<sup>${c.marks.join(',')}</sup>` : ''}</td>`
				)
				.join('');
			const counts = table.withCounts ? `<td>${esc(row.counts ?? '')}</td>` : '';
			return `<tr><th scope="row">${esc(row.label)}</th>${counts}${cells}</tr>`;
		})
		.join('\n');
	const notes = table.notes.length
		? `<ol class="notes">${table.notes.map((n) => `<li>${esc(n)}</li>`).join('')}</ol>`
		: '';
	const ci = hasBrackets(table) ? `<p class="small muted">${esc(ciNote(table.locale))}</p>` : '';
	return `<table><thead><tr>${head}</tr></thead><tbody>\n${rows}\n</tbody></table>${ci}${notes}`;
}

function confusionHtml(
	c: ReportConfusion,
	verdicts: readonly string[],
	locale: Locale | undefined
): string {
	const head = verdicts.map((v) => `<th scope="col" class="num">${esc(v)}</th>`).join('');
	const rows = c.matrix
		.map(
			(row, g) =>
				`<tr><th scope="row">${esc(verdicts[g] ?? String(g))}</th>${row.map((n) => `<td class="num">${Number(n)}</td>`).join('')}</tr>`
		)
		.join('');
	return (
		`<table class="confusion"><caption>${esc(`${c.label} · ${c.setup}`)}</caption>` +
		`<thead><tr><th scope="col">${esc(m.results_confusion_corner({}, { locale }))}</th>${head}</tr></thead><tbody>${rows}</tbody></table>`
	);
}

/** The report as one HTML document (UTF-8). */
export function htmlReport(input: HtmlReportInput): string {
	const { locale } = input;
	const o = { locale };
	const figures = input.figures
		.map(
			(figure) =>
				`<section class="fig"><h2>${esc(figure.title)}</h2><p class="small muted">${esc(figure.description)}</p>` +
				`<figure>${figureSvg(figure)}<figcaption>${esc(figure.title)}</figcaption></figure>` +
				tableHtml(tableOf(figure)) +
				'</section>'
		)
		.join('\n');
	const confusion = input.confusion.length
		? `<h2>${esc(m.results_report_confusion({}, o))}</h2><div class="matrices">${input.confusion
				.map((c) => confusionHtml(c, input.verdicts, locale))
				.join('')}</div>`
		: '';
	return `<!doctype html>
<html lang="${(locale ?? getLocale()) === 'zh-CN' ? 'zh-CN' : 'en'}">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(input.title)}</title>
<style>${STYLE}</style>
</head>
<body>
<h1>${esc(input.title)}</h1>
<p class="small muted">${esc(m.results_report_generated({ at: formatDate(input.generatedAt, locale ?? getLocale(), { date: 'medium', time: 'long' }) }, o))}</p>
<h2>${esc(m.results_runs({}, o))}</h2>
<ul>${input.runs.map((r) => `<li><strong>${esc(r.label)}</strong> <span class="muted small">${esc(r.detail)}</span></li>`).join('')}</ul>
<h2>${esc(m.results_report_uncertainty({}, o))}</h2>
${input.uncertainty.map((u) => `<p class="small">${esc(u)}</p>`).join('\n')}
${figures}
${confusion}
${(input.sections ?? []).join('\n')}
${input.notes.length ? `<h2>${esc(m.results_notes({}, o))}</h2><ul class="small">${input.notes.map((n) => `<li>${esc(n)}</li>`).join('')}</ul>` : ''}
</body>
</html>
`;
}

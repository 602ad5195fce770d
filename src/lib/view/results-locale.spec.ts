/**
 * The Results page's words in both interface languages: figures, tables and their copies, the
 * HTML report, notes the core writes in English, the paired table and its refusals. Words follow
 * the interface language at each call (`getLocale`), unless an export asks for one.
 */
import { english } from '$lib/core/voice';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { datasetWithUnmappedCause, reportOfRuns } from '../../../tests/fixtures/bundles/report';
import { compareLoaded, type LoadedRun, type ResultsReport } from '$lib/core/results';
import { baseLocale, overwriteGetLocale, type Locale } from '$lib/paraglide/runtime';
import { refusalOf, refusalText } from './compare-refusal';
import { compareHeaders, compareRows, powerText } from './compare-table';
import { coreNote } from './core-notes';
import { axisTitle, type FigureContext } from './figures';
import { DEFAULT_FIGURE_CHOICE, reportNotes, resultFigures } from './result-figures';
import { resultsHtml } from './results-html';
import { figureSvg } from './svg-chart';
import { tableOf } from './table-format';
import { toCsv } from './table-csv';
import { toLatex } from './table-latex';
import { toMarkdown } from './table-markdown';

let report: ResultsReport;
const loaded = new Map<string, LoadedRun>();
let interfaceLocale: Locale = 'en';
overwriteGetLocale(() => interfaceLocale);

beforeAll(async () => {
	// Case 3 has a cause the map lacks (a core note), and one run stopped after gen (partial).
	report = await reportOfRuns(
		datasetWithUnmappedCause(6),
		[
			{ runId: 'run1' },
			{ runId: 'run2' },
			{ runId: 'run1', model: 'sim-model-b', stages: ['gen'] },
			{ runId: 'short', limit: 5 }
		],
		{
			onRun: (run, manifest, table) =>
				loaded.set(`${run.run_id}/${run.model}`, { run, manifest, table })
		}
	);
});

afterEach(() => {
	interfaceLocale = baseLocale;
});

const ctx = (locale?: Locale): FigureContext => ({
	report,
	mode: 'runs',
	simulated: (key) => key.includes('sim-model-b'),
	locale
});

/** Two or more English words in a row: interface English, where Chinese was asked for. */
const ENGLISH = /[A-Za-z]{2,}[a-z]*(?: [A-Za-z]{2,}[a-z]*)+/g;
/** Words that stay as they are in Chinese: the paper's terms, file and run names, data. */
const KEPT = [
	/sim-model-[ab]( · (run1|run2|short))?/g,
	/(LJP )?(Direct|Gold|Interaction)( QWK)?/g,
	/\b(LCA|DCG|LJP) (Macro-F1|F1_U|F1_C|Acc_C|Acc_U|QWK)\b/g,
	/\\usepackage\{\w+\}/g
];
function englishIn(text: string): string[] {
	let rest = text;
	for (const k of KEPT) rest = rest.replace(k, ' ');
	return [...rest.matchAll(ENGLISH)].map((x) => x[0]);
}

describe('the figures in Chinese', () => {
	it('word titles, descriptions, headings and notes in Chinese; metric names and classes kept', () => {
		interfaceLocale = 'zh-CN';
		const figures = resultFigures(ctx(), DEFAULT_FIGURE_CHOICE);
		expect(figures.lca.title).toBe('LCA：追问还是作答');
		expect(figures.lca.description).toContain('按运行分列');
		expect(figures.lca.categories).toEqual(['Macro-F1', 'F1_U', 'F1_C', 'Acc_C', 'Acc_U']);
		expect(figures.dcg.categories).toEqual(['成功率', '第 1 轮成功率', '第 2 轮成功率']);
		expect(figures.ljpQwk.categories).toEqual(['Direct', 'Gold', 'Interaction']);
		expect(figures.ljpAcc.title).toBe('LJP：各设定下的准确率');
		expect(figures.ljpClass.title).toBe('各案由类别的 LJP Direct QWK');
		expect(figures.lcaClass.categoryTitle).toBe('类别');
		expect(figures.lcaClass.categories).toContain('未分类');
		expect(figures.lca.series.map((s) => s.label)).toContain('sim-model-b · run1（模拟）');
		expect(axisTitle(figures.lca)).toBe('比率');
		expect(axisTitle(figures.ljpQwk)).toBe('QWK');

		const notes = Object.values(figures).flatMap((f) => f.cells.flat().flatMap((c) => c.notes));
		expect(notes).toContain('run1 尚未运行 DCG_results');
		for (const f of Object.values(figures)) {
			expect(englishIn([f.title, f.description, f.categoryTitle, ...notes].join('\n'))).toEqual([]);
		}
	});

	it('follow the interface language at each call, or the language an export asks for', () => {
		interfaceLocale = 'zh-CN';
		expect(resultFigures(ctx(), DEFAULT_FIGURE_CHOICE).dcg.title).toBe(
			'DCG：追问能否问出缺失的事实？'
		);
		expect(resultFigures(ctx('en'), DEFAULT_FIGURE_CHOICE).dcg.title).toBe(
			'DCG: do the questions find the missing facts?'
		);
		interfaceLocale = 'en';
		expect(resultFigures(ctx(), DEFAULT_FIGURE_CHOICE).dcg.title).toBe(
			'DCG: do the questions find the missing facts?'
		);
		expect(resultFigures(ctx('zh-CN'), DEFAULT_FIGURE_CHOICE).dcg.categories[0]).toBe('成功率');
	});
});

describe('copies, images and the report in the export language', () => {
	it('CSV, Markdown and LaTeX word their headings, notes and interval note in Chinese', () => {
		const figure = resultFigures(ctx('zh-CN'), DEFAULT_FIGURE_CHOICE).lcaClass;
		const table = tableOf(figure);
		const csv = toCsv(table);
		expect(csv.split('\n')[0]).toMatch(/^类别,案例 · 诉请,sim-model-a · run1,/);
		expect(csv).toContain('注释');
		expect(toMarkdown(table)).toContain('**各案由类别的 LCA Macro-F1**');
		const tex = toLatex(table);
		expect(tex).toContain('% 需要 \\usepackage{booktabs}。');
		expect(tex).toContain('\\caption{各案由类别的 LCA Macro-F1}');
		for (const text of [csv, toMarkdown(table), tex]) expect(englishIn(text)).toEqual([]);
	});

	it('CSV, Markdown and LaTeX in English while the interface is Chinese', () => {
		interfaceLocale = 'zh-CN';
		const table = tableOf(resultFigures(ctx('en'), DEFAULT_FIGURE_CHOICE).lcaClass);
		expect(toCsv(table).split('\n')[0]).toMatch(/^Class,Cases · claims,/);
		expect(toMarkdown(table)).toContain('**LCA Macro-F1 by cause class**');
		expect(toLatex(table)).toContain('% Needs \\usepackage{booktabs}.');
		expect(toMarkdown(table) + toCsv(table)).not.toMatch(/案例|类别|注释|置信/);
	});

	it('SVG charts carry their title and axis in the export language', () => {
		const zh = figureSvg(resultFigures(ctx('zh-CN'), DEFAULT_FIGURE_CHOICE).dcg);
		expect(zh).toContain('<title>DCG：追问能否问出缺失的事实？</title>');
		expect(zh).toContain('>比率</text>');
		const en = figureSvg(resultFigures(ctx('en'), DEFAULT_FIGURE_CHOICE).dcg);
		expect(en).toContain('>rate</text>');
	});

	it('the HTML report speaks one language throughout, and says which', () => {
		const html = (locale: Locale) =>
			resultsHtml({
				report,
				figures: resultFigures(ctx(locale), DEFAULT_FIGURE_CHOICE),
				simulated: (key) => key.includes('sim-model-b'),
				notes: reportNotes(report, locale),
				generatedAt: '2025-05-01T00:00:00.000Z',
				locale
			});
		interfaceLocale = 'en';
		const zh = html('zh-CN');
		expect(zh).toContain('<html lang="zh-CN">');
		expect(zh).toContain('<title>LexPilot 评测结果</title>');
		for (const h of [
			'运行',
			'不确定性',
			'注释',
			'LJP 混淆矩阵（诉请；行为标准判决，列为预测判决）'
		]) {
			expect(zh).toContain(`<h2>${h}</h2>`);
		}
		// The time as Chinese writes it, with its zone, not as ISO.
		expect(zh).toMatch(/由 LexPilot 工作台于 2025年\d+月\d+日 .+ 根据以下运行的记录生成。/);
		expect(zh).not.toContain('2025-05-01T00:00');
		expect(zh).toMatch(/<span class="muted small">6 个案例，\d+ 项诉请<\/span>/);
		expect(zh).toContain('标准 \\ 预测');
		const visible = zh.replace(/<style>[\s\S]*?<\/style>/, '').replace(/<[^>]+>/g, ' ');
		expect(englishIn(visible)).toEqual([]);
		interfaceLocale = 'zh-CN';
		const en = html('en');
		expect(en).toContain('<html lang="en">');
		expect(en).toContain('<h2>Uncertainty</h2>');
		expect(en).not.toMatch(/不确定性|标准 \\ 预测|案例/);
	});
});

describe('notes the core writes in English', () => {
	it('every note of this report reads in Chinese, cause names kept', () => {
		const notes = reportNotes(report, 'zh-CN');
		expect(notes.length).toBeGreaterThan(2);
		expect(notes).toContain('sim-model-b · run1：DCG_results：尚无此文件');
		expect(notes.some((n) => n.includes('案由“离婚纠纷”不在该运行的类别映射中，计入未分类'))).toBe(
			true
		);
		expect(notes.flatMap(englishIn)).toEqual([]);
		// The same notes in English are the core's own words.
		const en = reportNotes(report, 'en');
		const [first] = report.runs.filter((r) => r.notes.length);
		expect(en).toContain(`${first.model} · ${first.run_id}: ${english(first.notes[0])}`);
	});

	it('every note of a paired comparison reads in Chinese', () => {
		const a = loaded.get('run1/sim-model-a')!;
		const b = loaded.get('run2/sim-model-a')!;
		const c = loaded.get('run1/sim-model-b')!;
		const partial = {
			...c,
			table: a.table,
			run: { ...c.run, completeness: { ...c.run.completeness } }
		};
		const notes = [
			...compareLoaded(a, b, { bootstrap: { resamples: 20 } }).notes,
			...compareLoaded(a, partial as LoadedRun, { bootstrap: { resamples: 20 } }).notes
		];
		expect(notes.some((n) => english(n).startsWith('B: DCG_results is missing'))).toBe(true);
		const zh = notes.map((n) => coreNote(n, 'zh-CN'));
		expect(zh).toContain('B：缺少 DCG_results，因此不比较其数值');
		expect(zh.some((n) => n.startsWith('两次运行'))).toBe(true);
		expect(zh.flatMap(englishIn)).toEqual([]);
	});
});

describe('the paired table and its refusals', () => {
	it('names rows, headings and unscored cells in Chinese with the CLI numbers', () => {
		const a = loaded.get('run1/sim-model-a')!;
		const b = loaded.get('run2/sim-model-a')!;
		const c = compareLoaded(a, b, { bootstrap: { resamples: 20 } });
		expect(compareHeaders('zh-CN')).toEqual([
			'指标',
			'A',
			'B',
			'B − A',
			'B − A 的 95% 置信区间',
			'p'
		]);
		const rows = compareRows(c, '', 'zh-CN');
		expect(rows.map((r) => r[0])).toContain('DCG 第 1 轮成功率');
		expect(rows.map((r) => r[0])).toContain('LJP Gold 准确率');
		expect(rows[0][1]).toBe(a.run.metrics.lca!.macro_f1!.toFixed(4));
		expect(compareRows(c, '', 'en').map((r) => r[0])).toContain('DCG Round 1');
		expect(powerText('worst', c.power.worst_case, 'zh-CN')).toMatch(
			/^最坏情况（比率为 0\.5，两次运行互不相关）：DCG 成功率 \d\.\d{4}，LCA Acc_C/
		);
	});

	it('refuses runs of other cases or datasets, itself, or a run not shown, in either language', () => {
		const a = loaded.get('run1/sim-model-a')!;
		const short = loaded.get('short/sim-model-a')!;
		const cases = refusalOf('x', 'y', a, short);
		expect(cases).toMatchObject({ kind: 'cases', na: 6, nb: 5 });
		expect(refusalText(cases!, 'zh-CN')).toMatch(
			/^这两次运行无法比较：它们选定的案例不同（A 有 6 个，B 有 5 个；仅 A 有：1 \(.+\)；仅 B 有：无）/
		);
		expect(refusalText(cases!, 'en')).toMatch(
			/cannot be compared.*only in A: 1 \(.*only in B: none/
		);
		const other = {
			...short,
			manifest: {
				...short.manifest,
				dataset: { ...short.manifest.dataset, sha256: 'f'.repeat(64) }
			}
		};
		expect(refusalText(refusalOf('x', 'y', a, other)!, 'zh-CN')).toContain('基于不同的数据集');
		expect(refusalText(refusalOf('x', 'x', a, a)!, 'zh-CN')).toMatch(/^请选择两次不同的运行/);
		expect(refusalText(refusalOf('x', 'y', a, undefined)!, 'zh-CN')).toMatch(/^两次运行都必须显示/);
		expect(refusalOf('x', 'y', a, loaded.get('run2/sim-model-a'))).toBeNull();
		// Case numbers from records are data: control characters escaped, never run.
		const hostile = { ...short, table: { ...short.table, case_numbers: ['\u001b[31mX'] } };
		expect(refusalText(refusalOf('x', 'y', a, hostile)!, 'en')).not.toContain('\u001b');
	});
});

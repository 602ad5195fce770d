import { describe, expect, it } from 'vitest';
import type { Figure } from './figures';
import { cellText, tableOf } from './table-format';
import { toCsv } from './table-csv';
import { latexEscape, toLatex } from './table-latex';
import { toMarkdown } from './table-markdown';

const QWK_NOTE = 'QWK undefined: the expected disagreement is zero';
const PARTIAL = 'partial 2/5: run2 has 2 of 5 cases of LJP_gold so far';

function figure(withSd: boolean, rows: 'series' | 'categories' = 'series'): Figure {
	const series = (label: string, id: string) => ({
		id,
		label,
		short: id,
		color: '#000',
		model: 'm',
		runIds: [id],
		simulated: false
	});
	return {
		id: 'ljp',
		title: 'LJP QWK by setup',
		description: '',
		categoryTitle: 'Setup',
		categories: ['Direct', 'Gold'],
		series: [series('gpt-x · run1', 'a'), series('gpt_y, "big" · run2', 'b')],
		cells: [
			[
				{ value: 0.123456, sd: withSd ? 0.01 : undefined, notes: [] },
				{ value: null, sd: withSd ? null : undefined, notes: [QWK_NOTE] }
			],
			[
				{ value: 1, sd: withSd ? null : undefined, notes: [PARTIAL] },
				{ value: null, sd: withSd ? null : undefined, notes: [QWK_NOTE] }
			]
		],
		scale: 'kappa',
		withSd,
		withCi: false,
		rows
	};
}

describe('tableOf', () => {
	it('numbers each distinct note once, in reading order', () => {
		const table = tableOf(figure(false));
		expect(table.notes).toEqual([QWK_NOTE, PARTIAL]);
		expect(table.rows.map((r) => r.cells.map((c) => c.marks))).toEqual([
			[[], [1]],
			[[2], [1]]
		]);
	});

	it('turns class figures around: categories as rows, series as columns', () => {
		const table = tableOf(figure(false, 'categories'));
		expect(table.corner).toBe('Setup');
		expect(table.columns.map((c) => [c.label, c.short])).toEqual([
			['gpt-x · run1', 'a'],
			['gpt_y, "big" · run2', 'b']
		]);
		expect(table.rows.map((r) => [r.label, r.cells.map((c) => c.value)])).toEqual([
			['Direct', [0.123456, 1]],
			['Gold', [null, null]]
		]);
	});
});

describe('copies', () => {
	it('CSV: plain numbers, empty for undefined, quoted labels, notes at the end', () => {
		expect(toCsv(tableOf(figure(false)))).toBe(
			[
				'Run,Direct,Gold,notes',
				'gpt-x · run1,0.1235,,[1]',
				'"gpt_y, ""big"" · run2",1.0000,,[1] [2]',
				'',
				`[1],${QWK_NOTE}`,
				`[2],${PARTIAL}`,
				''
			].join('\n')
		);
	});

	it('CSV: labels and notes that start a formula are neutralised, negative figures stay numbers', () => {
		const hostile = figure(false);
		hostile.categories = ['=HYPERLINK("http://evil","x")', '@SUM(A1)'];
		hostile.series[0].label = '+cmd|/c calc';
		hostile.series[1].label = '-2+3';
		hostile.cells[0][0] = { value: -0.0123, sd: undefined, notes: ['=1+1 note'] };
		hostile.cells[1][0] = { value: -1, sd: undefined, notes: ['\tnote'] };
		expect(toCsv(tableOf(hostile)).split('\n')).toEqual([
			`Run,"'=HYPERLINK(""http://evil"",""x"")","'@SUM(A1)",notes`,
			`"'+cmd|/c calc",-0.0123,,[1] [2]`,
			`"'-2+3",-1.0000,,[2] [3]`,
			'',
			`[1],"'=1+1 note"`,
			`[2],${QWK_NOTE}`,
			`[3],"'\tnote"`,
			''
		]);
	});

	it('CSV: an SD column after each value for mean ± SD', () => {
		const csv = toCsv(tableOf(figure(true)));
		expect(csv.split('\n').slice(0, 2)).toEqual([
			'Model (runs),Direct,Direct SD,Gold,Gold SD,notes',
			'gpt-x · run1,0.1235,0.0100,,,[1]'
		]);
	});

	it('Markdown: aligned numbers, — with its note mark, notes below', () => {
		expect(toMarkdown(tableOf(figure(true)))).toBe(
			[
				'**LJP QWK by setup**',
				'',
				'| Model (runs) | Direct | Gold |',
				'| --- | ---: | ---: |',
				'| gpt-x · run1 | 0.1235 ± 0.0100 | —¹ |',
				'| gpt_y, "big" · run2 | 1.0000 ± —² | —¹ |',
				'',
				`¹ ${QWK_NOTE}  `,
				`² ${PARTIAL}  `,
				''
			].join('\n')
		);
	});

	it('LaTeX: booktabs, $\\pm$, --- for undefined, escaped labels', () => {
		const tex = toLatex(tableOf(figure(true)));
		expect(tex).toContain('\\begin{tabular}{lrr}');
		expect(tex).toContain('Model (runs) & Direct & Gold \\\\');
		expect(tex).toContain('gpt-x · run1 & 0.1235 $\\pm$ 0.0100 & ---$^{1}$ \\\\');
		expect(tex).toContain('gpt\\_y, "big" · run2 & 1.0000 $\\pm$ ---$^{2}$ & ---$^{1}$ \\\\');
		expect(tex).toContain(`$^{1}$ ${QWK_NOTE}\\\\`);
		expect(tex.trim().endsWith('\\end{table}')).toBe(true);
	});

	it.each([
		['50% & more', '50\\% \\& more'],
		['a_b#c', 'a\\_b\\#c'],
		['{x}^~', '\\{x\\}\\textasciicircum{}\\textasciitilde{}'],
		['C:\\path', 'C:\\textbackslash{}path'],
		['婚姻家庭纠纷', '婚姻家庭纠纷']
	])('escapes %s for LaTeX', (input, output) => {
		expect(latexEscape(input)).toBe(output);
	});
});

describe('tables with intervals', () => {
	const withCi = () => {
		const fig = figure(false, 'categories');
		fig.withCi = true;
		fig.cells[0][0] = { ...fig.cells[0][0], ci: [0.1, 0.15], counts: { cases: 12, claims: 30 } };
		fig.cells[1][0] = { ...fig.cells[1][0], ci: null, counts: { cases: 12, claims: 30 } };
		fig.claims = true;
		return tableOf(fig);
	};

	it('writes value [low, high] in Markdown and LaTeX, and says what the brackets are', () => {
		const md = toMarkdown(withCi());
		expect(md).toContain('| Direct | 12 cases, 30 claims | 0.1235 [0.1000, 0.1500] |');
		expect(md).toContain('Brackets: 95% case-bootstrap interval');
		const tex = toLatex(withCi());
		expect(tex).toContain('0.1235 [0.1000, 0.1500]');
		expect(tex).toContain('12 cases, 30 claims');
		expect(tex).toContain('95\\% case-bootstrap');
	});

	it('gives CSV a low and a high column per value, and a counts column for classes', () => {
		const csv = toCsv(withCi()).split('\n');
		expect(csv[0]).toBe(
			'Setup,Cases · claims,gpt-x · run1,gpt-x · run1 CI low,gpt-x · run1 CI high,' +
				'"gpt_y, ""big"" · run2","gpt_y, ""big"" · run2 CI low","gpt_y, ""big"" · run2 CI high",notes'
		);
		expect(csv[1]).toBe('Direct,"12 cases, 30 claims",0.1235,0.1000,0.1500,1.0000,,,[1]');
	});

	it('names the CJK package LaTeX needs in a comment', () => {
		const tex = toLatex(tableOf(figure(false)));
		expect(tex.split('\n')[0]).toMatch(/^% Needs \\usepackage\{booktabs\}/);
		expect(tex).toMatch(/^% .*\\usepackage\{xeCJK\}.*\\usepackage\{ctex\}/m);
	});

	it('shows a group of one run with its interval instead of "± —"', () => {
		expect(cellText({ value: 0.5, sd: null, ci: [0.4, 0.6] }, true)).toBe(
			'0.5000 [0.4000, 0.6000]'
		);
		expect(cellText({ value: 0.5, sd: 0.1, ci: null }, true)).toBe('0.5000 ± 0.1000');
		expect(cellText({ value: 0.5, sd: null }, true)).toBe('0.5000 ± —');
	});
});

describe('the note about brackets', () => {
	const NOTE = 'Brackets: 95% case-bootstrap interval';
	const withCi = (ci: [number, number] | null): Figure => {
		const f = figure(false, 'categories');
		return {
			...f,
			withCi: true,
			cells: f.cells
				.map((row) => row.map((cell) => ({ ...cell, ci: null })))
				.map((row, s) => (s === 0 ? [{ ...row[0], ci }, row[1]] : row))
		};
	};

	it('is under a table with a bracketed value', () => {
		const table = tableOf(withCi([0.1, 0.2]));
		expect(toMarkdown(table)).toContain(NOTE);
		expect(toLatex(table)).toContain('Brackets: 95\\% case-bootstrap interval');
	});

	it('is left out of a table of intervals where no value has one (a per-class table)', () => {
		const table = tableOf(withCi(null));
		expect(toMarkdown(table)).not.toContain(NOTE);
		expect(toLatex(table)).not.toContain('Brackets');
	});
});

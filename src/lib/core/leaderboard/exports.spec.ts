import { describe, expect, it } from 'vitest';
import { syntheticPlan, syntheticRun } from '../../../../tests/support/leaderboard-runs';
import { escapeLatex, escapeMarkdown } from '../text/latex';
import { leaderboardCsv, leaderboardLatex, leaderboardMarkdown } from './exports';
import { computeLeaderboard } from './leaderboard';
import { paperTable } from './paper-table';
import { formatLeaderboard } from './format-text';

const HOSTILE = 'a\\b&c%d_e{f}$#~^|\u0007\n=x';

describe('escaping for exports', () => {
	it.each([
		['\\', '\\textbackslash{}'],
		['&', '\\&'],
		['%', '\\%'],
		['_', '\\_'],
		['{x}', '\\{x\\}'],
		['\u0007', '\\textbackslash{}u0007'],
		['line\nbreak', 'line\\textbackslash{}u000abreak'],
		['$#~^', '\\$\\#\\textasciitilde{}\\textasciicircum{}']
	])('LaTeX %j → %j', (text, latex) => expect(escapeLatex(text)).toBe(latex));

	it('keeps a Markdown cell one cell on one line', () => {
		expect(escapeMarkdown('a|b*c_\u0007\nd')).toBe('a\\|b\\*c\\_\\\\u0007\\\\u000ad');
	});
});

describe('the paper table', () => {
	const runs = [
		...syntheticPlan({ strong: 0.9, weak: 0.5 }, 2, 60),
		syntheticRun({ model: HOSTILE, runId: 'run1', skill: 0.89 }, 60),
		syntheticRun({ model: HOSTILE, runId: 'run2', skill: 0.89 }, 60)
	];
	const board = computeLeaderboard(runs, { bootstrap: { resamples: 300 }, classes: false })
		.boards[0];
	const rows = paperTable(board.overall, 'lca_acc_u');

	it('marks the best mean and the models tied with it', () => {
		expect(rows[0].cells.lca_acc_u.best).toBe(true);
		expect(rows.filter((r) => r.cells.lca_acc_u.best)).toHaveLength(1);
		const weak = rows.find((r) => r.id === 'weak')!;
		expect([weak.cells.lca_acc_u.best, weak.cells.lca_acc_u.tied_with_best]).toEqual([
			false,
			false
		]);
		for (const row of rows) {
			const best = rows.find((r) => r.cells.lca_acc_u.best)!;
			expect(row.cells.lca_acc_u.tied_with_best).toBe(
				!row.cells.lca_acc_u.best && row.cells.lca_acc_u.tied_with.includes(best.id)
			);
		}
	});

	it('writes a booktabs table whose hostile model id cannot break a row', () => {
		const latex = leaderboardLatex(rows);
		expect(latex).toContain('\\toprule');
		expect(latex).toContain('\\bottomrule');
		const line = latex.split('\n').find((l) => l.startsWith('a\\textbackslash'))!;
		expect(line).toContain(
			'a\\textbackslash{}b\\&c\\%d\\_e\\{f\\}\\$\\#\\textasciitilde{}\\textasciicircum{}\\textbar{}\\textbackslash{}u0007\\textbackslash{}u000a=x & 2 & '
		);
		// Every body row has the columns of the head: no `&` leaked from the model id.
		const cols = (l: string) => l.split(/(?<!\\)&/).length;
		const head = latex.split('\n').find((l) => l.startsWith('Model'))!;
		for (const row of latex.split('\n').filter((l) => l.endsWith('\\\\')))
			expect(cols(row)).toBe(cols(head));
		expect(latex).toMatch(/\\textbf\{0\.\d{4} \$\\pm\$ 0\.\d{4}\}/);
	});

	it('writes Markdown and CSV with the hostile id contained', () => {
		const md = leaderboardMarkdown(rows).split('\n');
		expect(md.filter((l) => l.startsWith('|'))).toHaveLength(2 + rows.length);
		const csv = leaderboardCsv(rows).split('\n');
		expect(csv[0].startsWith('model,n,differs,lca_macro_f1_mean,lca_macro_f1_sd,')).toBe(true);
		// The id holds a line break: quoted by csvCell, so the CSV still has one record per model.
		expect(leaderboardCsv(rows)).toContain(`"${HOSTILE.replace(/"/g, '""')}"`);
		const strong = csv.find((l) => l.startsWith('strong,'))!.split(',');
		const mean = board.overall.rows.find((r) => r.id === 'strong')!.cells.lca_macro_f1.mean!;
		expect(strong[3]).toBe(mean.toFixed(4));
	});
});

describe('a table whose pairs were not tested (under 10 cases)', () => {
	const board = computeLeaderboard(syntheticPlan({ strong: 0.95, asker: 0.3 }, 2, 6), {
		classes: false
	}).boards[0];
	const rows = paperTable(board.overall, 'dcg_success');
	const options = { untested: board.overall.untested };

	it('marks no tie: tied_with_best is null, not true', () => {
		const asker = rows.find((r) => r.id === 'asker')!;
		for (const c of ['lca_acc_u', 'dcg_success'] as const) {
			expect(asker.cells[c].tied_with_best).toBeNull();
		}
	});

	it('leaves the CSV cell empty, not 0 or 1', () => {
		const [head, ...body] = leaderboardCsv(rows).trimEnd().split('\n');
		const at = head.split(',').indexOf('dcg_success_tied_with_best');
		expect(at).toBeGreaterThan(0);
		for (const line of body) expect(line.split(',')[at]).toBe('');
	});

	it('puts no † in LaTeX and Markdown, and says in the caption that no test was run and why', () => {
		const latex = leaderboardLatex(rows, options);
		const md = leaderboardMarkdown(rows, options);
		expect(latex).not.toContain('dagger');
		expect(md).not.toContain('†');
		const caption = latex.split('\n').find((l) => l.startsWith('\\caption'))!;
		expect(caption).not.toContain('paired case bootstrap');
		expect(caption).toContain(
			'No paired test was run: 6 cases, fewer than the 10 a test needs, so no model is marked as tied with another.'
		);
		expect(md).toContain('No paired test was run: 6 cases, fewer than the 10 a test needs');
	});
});

describe('a tested table', () => {
	const board = computeLeaderboard(syntheticPlan({ strong: 0.9, weak: 0.5 }, 2, 60), {
		bootstrap: { resamples: 200 },
		classes: false
	}).boards[0];
	const rows = paperTable(board.overall);

	it('explains in the caption that rank intervals are marginal and ties are Holm-corrected pairs', () => {
		const caption = leaderboardLatex(rows, { untested: board.overall.untested })
			.split('\n')
			.find((l) => l.startsWith('\\caption'))!;
		expect(caption).toContain('paired case bootstrap');
		expect(caption).toContain('marginal');
		expect(caption).toContain('Holm-corrected pairwise test');
		expect(caption).toContain('4 [4--4]');
		expect(leaderboardMarkdown(rows)).toContain('a rank interval such as 4 [4–4]');
	});
});

describe('a share at 1 on every case (intervals that do not collapse)', () => {
	const lb = computeLeaderboard(syntheticPlan({ perfect: 1, weak: 0.5 }, 2, 32), {
		bootstrap: { resamples: 200 },
		classes: false
	});
	const rows = paperTable(lb.boards[0].overall, 'dcg_success');
	const perfect = rows.find((r) => r.id === 'perfect')!.cells.dcg_success;

	it("shows Wilson's score interval over the 32 cases, not [1.0000, 1.0000]", () => {
		expect(perfect.mean).toBe(1);
		expect(perfect.sd).toBe(0);
		expect(perfect.ci_method).toBe('wilson');
		expect(perfect.ci95![0]).toBeCloseTo(32 / (32 + 1.959963984540054 ** 2), 12);
		expect(perfect.ci95![1]).toBe(1);
	});

	it('names the interval of each cell in the CSV and marks it W in the text, with a legend', () => {
		const [head, ...body] = leaderboardCsv(rows).trimEnd().split('\n');
		const at = head.split(',').indexOf('dcg_success_ci_method');
		const line = body.find((l) => l.startsWith('perfect,'))!.split(',');
		expect([line[at - 2], line[at - 1], line[at]]).toEqual(['0.8928', '1.0000', 'wilson']);
		expect(body.find((l) => l.startsWith('weak,'))!.split(',')[at]).toBe('percentile');
		const text = formatLeaderboard(lb, { sort: 'dcg_success', costs: null, cls: null });
		expect(text).toContain('[0.8928, 1.0000] W');
		expect(text).not.toContain('[1.0000, 1.0000]');
		expect(text).toContain('W: Wilson’s score interval over the cases');
	});
});

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCliInProcess } from '../../../tests/cli/run-cli';

const SAMPLE = resolve(__dirname, '../../../static/sample/lexpilot-sample.json');
/** A hostile model id: LaTeX specials, a Markdown pipe and a control character. */
const HOSTILE = 'evil\\input{x}&50%_#~|\u0007';

const cli = (cwd: string, ...args: string[]) => runCliInProcess(args, { cwd });

describe('results --leaderboard over runs written by the CLI', () => {
	const root = mkdtempSync(join(tmpdir(), 'lexpilot-leaderboard-'));
	beforeAll(async () => {
		for (const model of ['sim-a', HOSTILE]) {
			for (const runId of ['run1', 'run2']) {
				const args = [
					'run',
					'--simulated',
					'--dataset',
					SAMPLE,
					'--output-root',
					join(root, 'lexpilot-output')
				];
				const r = await cli(root, ...args, '--model', model, '--run-id', runId, '--limit', '12');
				expect(r.code, r.stderr).toBe(0);
			}
		}
	}, 120_000);

	it('prints one row per model with n, ranks and their intervals, and the ties', async () => {
		const r = await cli(root, 'results', '--leaderboard');
		expect(r.code, r.stderr).toBe(0);
		expect(r.stdout).toContain('Leaderboard 1: dataset');
		expect(r.stdout).toMatch(/^sim-a +2 +\*0\.\d{4} ± 0\.0000/m);
		expect(r.stdout).toContain('Rank [95%]');
		expect(r.stdout).toMatch(/^sim-a +1 \[1–1\]/m);
		expect(r.stdout).toContain('Statistically tied');
		// The control character is shown, not sent.
		expect(r.stdout).not.toContain('\u0007');
		expect(r.stdout).toContain('\\u0007');
	});

	it('prints JSON with the statistics and the tokens of each model', async () => {
		const r = await cli(root, 'results', '--leaderboard', '--json', '--resamples', '200');
		expect(r.code, r.stderr).toBe(0);
		const lb = JSON.parse(r.stdout);
		expect(lb.bootstrap).toMatchObject({ unit: 'case', resamples: 200, seed: 2411 });
		const rows = lb.boards[0].overall.rows;
		expect(rows.map((row: { id: string; n: number }) => [row.id, row.n])).toEqual([
			[HOSTILE, 2],
			['sim-a', 2]
		]);
		expect(rows[1].cells.lca_macro_f1).toMatchObject({ sd: 0, n_defined: 2, rank: 1 });
		expect(rows[1].cells.lca_macro_f1.rank_ci95).toEqual([1, 1]);
		expect(rows[1].cost.tokens_per_run).toBeGreaterThan(0);
		expect(rows[1].cost.cost).toBeNull();
		expect(Object.keys(lb.boards[0].by_class).length).toBeGreaterThan(0);
	});

	it('prices tokens from --prices and sorts by cost', async () => {
		const prices = join(root, 'prices.json');
		const price = { input: 1, output: 2 };
		writeFileSync(
			prices,
			JSON.stringify({
				models: {
					'sim-a': { input: 10, output: 10 },
					[HOSTILE]: price,
					'DeepSeek-V4.1-Flash': price,
					'DeepSeek-R1': price
				}
			})
		);
		const r = await cli(
			root,
			'results',
			'--leaderboard',
			'--prices',
			prices,
			'--sort',
			'cost',
			'--format',
			'markdown'
		);
		expect(r.code, r.stderr).toBe(0);
		const lines = r.stdout.split('\n');
		expect(lines[0]).toContain('Cost/run (USD)');
		expect(lines[2]).toMatch(/^\| evil\\\\input\\\{x\\\}&50%\\_#\\~\\\|\\\\u0007 \| 2 \|/);
		expect(lines[3]).toMatch(/^\| sim-a \| 2 \|/);
	});

	it('escapes a hostile model id in the LaTeX table', async () => {
		const r = await cli(
			root,
			'results',
			'--leaderboard',
			'--format',
			'latex',
			'--resamples',
			'100'
		);
		expect(r.code, r.stderr).toBe(0);
		expect(r.stdout).toContain(
			'evil\\textbackslash{}input\\{x\\}\\&50\\%\\_\\#\\textasciitilde{}\\textbar{}\\textbackslash{}u0007 & 2 &'
		);
		expect(r.stdout).toContain('\\toprule');
	});

	it('refuses a price above 10,000 per million tokens in results --prices and run --prices, naming file, field and price', async () => {
		const huge = join(root, 'huge.json');
		writeFileSync(huge, '{"models":{"sim-a":{"input":1,"output":1e308}}}');
		const says =
			`error: prices ${huge}, field "models"."sim-a"."output": 1e+308 is above 10,000 per ` +
			'million tokens, the most a price may be\n';
		const results = await cli(root, 'results', '--leaderboard', '--prices', huge);
		expect([results.code, results.stderr, results.stdout]).toEqual([2, says, '']);
		const out = join(root, 'huge-run');
		const run = await cli(
			root,
			...['run', '--simulated', '--dataset', SAMPLE, '--output-root', out],
			...['--model', 'sim-a', '--run-id', 'r', '--limit', '2', '--prices', huge]
		);
		expect([run.code, run.stderr]).toEqual([2, says]);
		// 10,000 itself is a price.
		writeFileSync(huge, '{"models":{"sim-a":{"input":10000,"output":10000}}}');
		const top = await cli(root, 'results', '--leaderboard', '--prices', huge);
		expect(top.code, top.stderr).toBe(0);
	});

	it('names a bad prices file, column or class and exits 2', async () => {
		const bad = join(root, 'bad.json');
		writeFileSync(bad, '{"models":{"m":{"input":1,"output":-2}}}');
		const r = await cli(root, 'results', '--leaderboard', '--prices', bad);
		expect([r.code, r.stderr]).toEqual([2, expect.stringContaining('field "models"."m"."output"')]);
		const sort = await cli(root, 'results', '--leaderboard', '--sort', 'speed');
		expect([sort.code, sort.stderr]).toEqual([
			2,
			expect.stringContaining('unknown column "speed"')
		]);
		const cls = await cli(root, 'results', '--leaderboard', '--class', 'none');
		expect([cls.code, cls.stderr]).toEqual([2, expect.stringContaining('no class "none"')]);
		const alone = await cli(root, 'results', '--sort', 'cost');
		expect([alone.code, alone.stderr]).toEqual([
			2,
			expect.stringContaining('--sort goes with --leaderboard')
		]);
	});
});

describe('results --leaderboard under 10 cases: no tie without a test', () => {
	const root = mkdtempSync(join(tmpdir(), 'lexpilot-leaderboard-few-'));
	const out = join(root, 'lexpilot-output');
	const WHY =
		'no paired test was run: 6 cases, fewer than the 10 a test needs, so no model is marked as tied with another';
	beforeAll(async () => {
		for (const model of ['acme-strong', 'acme-asker']) {
			const args = ['run', '--simulated', '--dataset', SAMPLE, '--output-root', out];
			const r = await cli(root, ...args, '--model', model, '--run-id', 'run1', '--limit', '6');
			expect(r.code, r.stderr).toBe(0);
		}
	}, 120_000);

	it('text: no † and no "a = b", and says why no test was run', async () => {
		const r = await cli(root, 'results', '--leaderboard', '--output-root', out);
		expect(r.code, r.stderr).toBe(0);
		expect(r.stdout).not.toContain('†');
		expect(r.stdout).not.toMatch(/acme-\w+ = acme-\w+/);
		expect(r.stdout).not.toContain('paired case bootstrap');
		expect(r.stdout).toContain(`Statistically tied: ${WHY}.`);
	});

	it('Markdown and LaTeX: no mark, and a caption that says no test was run and why', async () => {
		for (const format of ['markdown', 'latex']) {
			const r = await cli(
				root,
				'results',
				'--leaderboard',
				'--output-root',
				out,
				'--format',
				format
			);
			expect(r.code, r.stderr).toBe(0);
			expect(r.stdout).not.toMatch(/†|dagger/);
			expect(r.stdout).not.toContain('paired case bootstrap');
			expect(r.stdout).toContain('No paired test was run: 6 cases, fewer than the 10 a test needs');
		}
	});

	it('CSV: every tied_with_best cell empty, not 0 or 1', async () => {
		const r = await cli(root, 'results', '--leaderboard', '--output-root', out, '--format', 'csv');
		expect(r.code, r.stderr).toBe(0);
		const [head, ...body] = r.stdout.trimEnd().split('\n');
		const columns = head.split(',').flatMap((h, i) => (h.endsWith('_tied_with_best') ? [i] : []));
		expect(columns).toHaveLength(7);
		expect(body).toHaveLength(2);
		for (const line of body) for (const i of columns) expect(line.split(',')[i]).toBe('');
	});

	it('JSON: untested pairs are null, not tied, and the scope says why', async () => {
		const r = await cli(root, 'results', '--leaderboard', '--output-root', out, '--json');
		expect(r.code, r.stderr).toBe(0);
		const overall = JSON.parse(r.stdout).boards[0].overall;
		expect(overall.untested).toBe(WHY);
		expect(overall.pairs.length).toBeGreaterThan(0);
		for (const p of overall.pairs) expect([p.p, p.p_holm, p.tied]).toEqual([null, null, null]);
		for (const row of overall.rows) expect(row.cells.dcg_success.tied_with).toEqual([]);
	});
});

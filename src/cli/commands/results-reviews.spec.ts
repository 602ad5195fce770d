/** `results` with review files beside the runs (PROTOCOL.md §5, "Review files"). */
import {
	cpSync,
	mkdirSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	renameSync,
	rmSync,
	truncateSync,
	writeFileSync
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliAsProcess, runCliInProcess } from '../../../tests/cli/run-cli';
import { reviewerFileName } from '../../lib/core/layout';

const FIXTURES = resolve(__dirname, '../../../tests/fixtures/results/repeated-runs');
const MODEL_DIR = 'qwen2.5-7b-instruct-2a1aaaf3';

/** run1's LCA records as [case, history, judge label]. */
function lcaDecisions(root: string): [string, string, string][] {
	const text = readFileSync(
		join(root, 'eval_results', 'run1', MODEL_DIR, 'LCA_results.jsonl'),
		'utf8'
	);
	return text
		.trim()
		.split('\n')
		.map((l) => JSON.parse(l))
		.map((r) => [r.case_number, r.history_type, r.label]);
}

const flip = (l: string) => (l === 'clarification' ? 'judgment' : 'clarification');

async function withReviews(
	files: Record<string, (d: [string, string, string], i: number) => string | null>
) {
	const root = mkdtempSync(join(tmpdir(), 'lexpilot-results-reviews-'));
	cpSync(FIXTURES, root, { recursive: true });
	const folder = join(root, 'reviews', 'run1', MODEL_DIR);
	mkdirSync(folder, { recursive: true });
	for (const [reviewer, label] of Object.entries(files)) {
		const lines = lcaDecisions(root).flatMap((d, i) => {
			const reviewer_label = label(d, i);
			if (reviewer_label === null) return [];
			const decision = {
				run_id: 'run1',
				model_dir: MODEL_DIR,
				stage: 'lca',
				case_number: d[0],
				history_type: d[1],
				round: null,
				claim: null
			};
			return [
				JSON.stringify({
					decision,
					judge_label: d[2],
					reviewer_label,
					reviewer,
					at: '2026-12-05T11:00:00Z'
				}) + '\n'
			];
		});
		writeFileSync(join(folder, await reviewerFileName(reviewer)), lines.join(''));
	}
	return root;
}

const results = (cwd: string, ...args: string[]) =>
	runCliInProcess(['results', '--output-root', cwd, '--run-id', 'run1', ...args], { cwd });

describe('results with review files', () => {
	it('prints the judge–reviewer agreement, the disagreements and "too small to say"', async () => {
		// Ann disagrees with the judge on the first two of run1's 8 LCA decisions.
		const root = await withReviews({ Ann: (d, i) => (i < 2 ? flip(d[2]) : d[2]) });
		const { code, stdout } = await results(root);
		expect(code).toBe(0);
		expect(stdout).toContain(
			'Judge review: run run1 / qwen2.5-7b-instruct-2a1aaaf3 (8 reviews by Ann)'
		);
		expect(stdout).toMatch(/LCA\s+all\s+8\s+6\s+0\.7500/);
		expect(stdout).toContain('lca case 2023-001 complete: judge judgment, Ann clarification');
		expect(stdout).toMatch(/LCA macro_f1\s+all\s+too small to say\s+8/);
	});

	it("prints beside κ the judge's Se and Sp with Wilson intervals, AC1, per-label agreement and the corrections' assumptions", async () => {
		// Ann disagrees with the judge on the first two of run1's 8 LCA decisions.
		const root = await withReviews({ Ann: (d, i) => (i < 2 ? flip(d[2]) : d[2]) });
		const { code, stdout } = await results(root);
		expect(code).toBe(0);
		const decisions = lcaDecisions(root);
		const annSays = decisions.map((d, i) => (i < 2 ? flip(d[2]) : d[2]));
		const pos = annSays.filter((l) => l === 'clarification').length;
		const tp = decisions.filter(
			(d, i) => annSays[i] === 'clarification' && d[2] === 'clarification'
		).length;
		expect(stdout).toContain('sensitivity [95% CI]');
		expect(stdout).toContain(`${(tp / pos).toFixed(4)} [`);
		expect(stdout).toContain(`] of ${pos}`);
		expect(stdout).toMatch(/AC1\s+QWK\s+agreement per label/);
		expect(stdout).toMatch(/clarification \d\.\d{3}, judgment \d\.\d{3}/);
		expect(stdout).toContain(
			"LCA's judge errs alike on complete and underspecified histories (one Se and Sp pooled over both); DCG's two rounds are judged independently given the truth"
		);
	});

	it('gives the same figures in --json, κ as computed by hand', async () => {
		const root = await withReviews({ Ann: (d, i) => (i < 2 ? flip(d[2]) : d[2]), Bo: (d) => d[2] });
		const { code, stdout } = await results(root, '--json');
		expect(code).toBe(0);
		const [run] = JSON.parse(stdout).reviews;
		expect(run.report.reviewers).toEqual(['Ann', 'Bo']);
		const ann = run.report.judge[0].stages[0].overall;
		const m = ann.confusion as number[][];
		const n = 8;
		const po = (m[0][0] + m[1][1]) / n;
		const pe =
			((m[0][0] + m[0][1]) * (m[0][0] + m[1][0]) + (m[1][0] + m[1][1]) * (m[0][1] + m[1][1])) /
			n ** 2;
		expect(ann.kappa).toBeCloseTo((po - pe) / (1 - pe), 12);
		expect(run.report.judge[1].stages[0].overall).toMatchObject({ n: 8, agreed: 8, kappa: 1 });
		expect(run.report.between[0].stages[0].overall).toMatchObject({ n: 8, agreed: 6 });
	});

	it('refuses a conflicting duplicate, naming the file and line', async () => {
		const root = await withReviews({ Ann: (d) => d[2] });
		const file = join(root, 'reviews', 'run1', MODEL_DIR, await reviewerFileName('Ann'));
		const [first] = readFileSync(file, 'utf8').split('\n');
		const changed = JSON.parse(first);
		changed.reviewer_label = flip(changed.reviewer_label);
		writeFileSync(file, `${readFileSync(file, 'utf8')}${JSON.stringify(changed)}\n`);
		const { code, stderr } = await results(root);
		expect(code).toBe(2);
		expect(stderr).toMatch(
			/Ann-[0-9a-f]{8}\.jsonl, line 9: reviewer "Ann" already gave another label.*line 1\)/
		);
	});
});

describe('results takes what the judge said from the run, not the review file', () => {
	it('leaves out, and counts, reviews whose stated judge label is not the run’s', async () => {
		// Ann disagrees with the judge on every decision, but her file states the judge's label as
		// her own: read from the file, that was 8 of 8 agreed, κ = 1.
		const root = await withReviews({ Ann: (d) => flip(d[2]) });
		const file = join(root, 'reviews', 'run1', MODEL_DIR, await reviewerFileName('Ann'));
		const lines = readFileSync(file, 'utf8').trim().split('\n');
		const copied = lines.map((l) => {
			const r = JSON.parse(l);
			return JSON.stringify({ ...r, judge_label: r.reviewer_label }) + '\n';
		});
		writeFileSync(file, copied.join(''));
		const { code, stdout } = await results(root);
		expect(code).toBe(0);
		expect(stdout).toContain(
			"left out: 8 reviews by Ann stating a judge label that is not this run's"
		);
		expect(stdout).not.toMatch(/LCA\s+all\s+8\s+8/);
		const json = JSON.parse((await results(root, '--json')).stdout);
		expect(json.reviews[0].report.mismatched).toEqual([{ reviewer: 'Ann', reviews: 8 }]);
		expect(json.reviews[0].report.judge[0].stages).toEqual([]);
	});

	it('refuses a review of a decision the run does not hold, naming file, line and case (exit 2)', async () => {
		const root = await withReviews({ Ann: (d) => d[2] });
		const file = join(root, 'reviews', 'run1', MODEL_DIR, await reviewerFileName('Ann'));
		const [first] = readFileSync(file, 'utf8').split('\n');
		const stray = JSON.parse(first);
		stray.decision.case_number = '2099-999';
		writeFileSync(file, `${readFileSync(file, 'utf8')}${JSON.stringify(stray)}\n`);
		const { code, stdout, stderr } = await results(root);
		expect(code).toBe(2);
		expect(stdout).toBe('');
		expect(stderr).toMatch(
			/Ann-[0-9a-f]{8}\.jsonl, line 9: reviewer "Ann" reviewed a decision of case 2099-999 \(stage lca, history_type \w+\) that this run does not hold/
		);
	});
});

describe('review files as docs/CLI.md names them, and every other file said', () => {
	it('reads reviews/<run-id>/<model>/<reviewer>.jsonl and warns about each file it does not read', async () => {
		const root = await withReviews({ Ann: (d, i) => (i < 2 ? flip(d[2]) : d[2]) });
		const folder = join(root, 'reviews', 'run1', MODEL_DIR);
		const [written] = readdirSync(folder);
		renameSync(join(folder, written), join(folder, 'Ann.jsonl'));
		writeFileSync(join(folder, 'notes.txt'), 'what Ann said\n');
		writeFileSync(join(folder, 'Bo.json'), '{}\n');
		const elsewhere = join(root, 'reviews', 'run9', MODEL_DIR);
		mkdirSync(elsewhere, { recursive: true });
		writeFileSync(join(elsewhere, 'Cy.jsonl'), '');
		const { code, stdout, stderr } = await results(root);
		expect(code).toBe(0);
		expect(stdout).toContain('(8 reviews by Ann)');
		expect(stdout).toMatch(/LCA\s+all\s+8\s+6\s+0\.7500/);
		const place = `${root}/reviews/run1/${MODEL_DIR}`;
		expect(stderr).toContain(
			`warning: ${place}/notes.txt: not read: a review file is reviews/<run-id>/<model folder>/<name>.jsonl\n`
		);
		expect(stderr).toContain(`warning: ${place}/Bo.json: not read:`);
		expect(stderr).toContain(
			`warning: ${root}/reviews/run9/${MODEL_DIR}/Cy.jsonl: not read: no run run9/${MODEL_DIR} under this output root`
		);
	});

	it('reads a review file a line at a time: a long line is refused by its number, with its length', async () => {
		const root = await withReviews({ Ann: (d) => d[2] });
		const file = join(root, 'reviews', 'run1', MODEL_DIR, await reviewerFileName('Ann'));
		const first = readFileSync(file, 'utf8').split('\n')[0];
		const long = JSON.stringify({ ...JSON.parse(first), note: '注'.repeat(30_000) });
		writeFileSync(file, `${readFileSync(file, 'utf8')}${long}\n`);
		const { code, stderr } = await results(root);
		expect(code).toBe(2);
		expect(stderr).toContain(
			`${file}, line 9: ${long.length.toLocaleString('en-US')} characters, more than the 20,000 a review line may hold.`
		);
	});

	it('refuses a 600 MB review file by name, exit 2, without reading it whole', async () => {
		const root = await withReviews({ Ann: (d) => d[2] });
		const file = join(root, 'reviews', 'run1', MODEL_DIR, 'Big-0123abcd.jsonl');
		writeFileSync(file, '');
		truncateSync(file, 600 * 1024 * 1024); // sparse: no disk used
		try {
			const { code, stdout, stderr } = await runCliAsProcess(
				['results', '--output-root', root, '--run-id', 'run1'],
				{}
			);
			expect(stdout).toBe('');
			expect(stderr).toContain(
				`${file}: more than the 256 MB a review file may hold (the reviews of a whole run take a few MB); not read.`
			);
			expect(code).toBe(2);
		} finally {
			rmSync(root, { recursive: true, force: true });
		}
	}, 60_000);
});

describe('results with reviews of LJP decisions', () => {
	/** A reviewer who agrees with every LJP verdict the judge extracted from run1. */
	function agreeingLjpReviews(root: string): string {
		const lines: string[] = [];
		for (const [setup, file] of [
			['direct', 'LJP_direct'],
			['gold', 'LJP_gold'],
			['interaction', 'LJP_interaction']
		]) {
			const path = join(root, 'eval_results', 'run1', MODEL_DIR, `${file}.jsonl`);
			for (const l of readFileSync(path, 'utf8').trim().split('\n')) {
				const r = JSON.parse(l) as { case_number: string; predicted: string[] };
				r.predicted.forEach((label, claim) => {
					const decision = {
						run_id: 'run1',
						model_dir: MODEL_DIR,
						stage: `ljp-${setup}`,
						case_number: r.case_number,
						history_type: null,
						round: null,
						claim
					};
					lines.push(
						JSON.stringify({
							decision,
							judge_label: label,
							reviewer_label: label,
							reviewer: 'Ann',
							at: '2026-12-05T11:00:00Z'
						}) + '\n'
					);
				});
			}
		}
		return lines.join('');
	}

	it('prints LJP QWK and accuracy corrected by the matrix method, a perfect judge changing nothing', async () => {
		const root = mkdtempSync(join(tmpdir(), 'lexpilot-results-ljp-reviews-'));
		cpSync(FIXTURES, root, { recursive: true });
		const folder = join(root, 'reviews', 'run1', MODEL_DIR);
		mkdirSync(folder, { recursive: true });
		writeFileSync(join(folder, await reviewerFileName('Ann')), agreeingLjpReviews(root));
		const text = await results(root);
		expect(text.code).toBe(0);
		expect(text.stdout).toMatch(/LJP direct qwk\s+all\s+\S/);
		const json = await results(root, '--json');
		const parsed = JSON.parse(json.stdout);
		const corrected = parsed.reviews[0].report.corrected[0].overall.ljp;
		const ljp = parsed.runs[0].metrics.ljp;
		for (const setup of ['direct', 'gold', 'interaction']) {
			const c = corrected[setup];
			if (c.qwk.status === 'ok') expect(c.qwk.value).toBeCloseTo(ljp[setup].qwk, 12);
			else expect(c.qwk.status).toBe('too_small');
			if (c.accuracy.status === 'ok') expect(c.accuracy.value).toBeCloseTo(ljp[setup].accuracy, 12);
		}
	});
});

import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { english } from '../voice';
import { escapeControl } from '../text/escape-control';
import { join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeRandomRuns, type RandomRunSpec } from '../../../../tests/unit/metrics/write-runs';
import { bootstrapRun } from '../metrics/bootstrap';
import type { CaseTable } from '../metrics/case-table';
import { compareRuns } from './compare';
import { formatComparison } from './format-compare';
import { computeReport, type RunReport } from './report';
import { memorySource } from './source';

/** The random runs `writeRandomRuns` writes, read into memory (the folder is removed). */
async function randomRuns(cases: number, runs: RandomRunSpec[]) {
	const root = await writeRandomRuns(cases, runs);
	const files: Record<string, string> = {};
	for (const p of readdirSync(root, { recursive: true, encoding: 'utf8' })) {
		const path = p.split(sep).join('/');
		if (path.endsWith('.json') || path.endsWith('.jsonl')) {
			files[path] = readFileSync(join(root, p), 'utf8');
		}
	}
	rmSync(root, { recursive: true });
	return memorySource(files, relative(process.cwd(), root));
}

describe('statistics in computeReport and compareRuns', async () => {
	const files = await randomRuns(40, [
		{ runId: 'r1', model: 'm1', seed: 1 },
		{ runId: 'r2', model: 'm2', seed: 2 }
	]);

	it('leaves ci95 null without the bootstrap option, with counts, matrices and power', async () => {
		const report = await computeReport(files);
		expect(report.bootstrap).toBeNull();
		for (const run of report.runs) {
			expect(run.ci95).toBeNull();
			for (const cls of Object.values(run.by_class)) expect(cls.ci95).toBeNull();
			expect(run.counts.cases).toBe(40);
			const m = run.ljp_confusion.direct!;
			expect(m.flat().reduce((a, b) => a + b, 0)).toBe(run.metrics.ljp.direct!.n_claims);
			// The diagonal over the total is the accuracy.
			expect((m[0][0] + m[1][1] + m[2][2]) / run.counts.claims!).toBeCloseTo(
				run.metrics.ljp.direct!.accuracy!,
				12
			);
		}
	});

	it('computes ci95 from the run’s case table with the given settings', async () => {
		const seen: { run: RunReport; table: CaseTable }[] = [];
		const report = await computeReport(files, {
			bootstrap: { resamples: 300, seed: 9 },
			onRun: (run, _manifest, table) => seen.push({ run, table })
		});
		expect(report.bootstrap).toEqual({
			unit: 'case',
			method: 'percentile',
			level: 0.95,
			resamples: 300,
			seed: 9
		});
		expect(seen.map((s) => s.run.run_id)).toEqual(['r1', 'r2']);
		for (const { run, table } of seen) {
			const expected = bootstrapRun(table, { resamples: 300, seed: 9 });
			expect(run.ci95).toEqual(expected.ci95);
			for (const [cls, tree] of Object.entries(expected.by_class)) {
				expect(run.by_class[cls].ci95).toEqual(tree);
			}
		}
	});

	it('with --partial, resamples the selected cases and scores only the saved records', async () => {
		// r1's DCG file loses its last 5 records: 35 of 40 cases saved.
		const texts: Record<string, string> = {};
		for (const path of await files.list()) {
			let text = await files.read(path);
			if (path.includes('/r1/') && path.endsWith('DCG_results.jsonl')) {
				text = text.split('\n').slice(0, 35).join('\n') + '\n';
			}
			texts[path] = text;
		}
		const report = await computeReport(memorySource(texts), {
			runId: 'r1',
			partial: true,
			bootstrap: { resamples: 300 }
		});
		const [run] = report.runs;
		expect(run.metrics.dcg!.n).toBe(35);
		const ci = run.ci95!.dcg!.success_rate!;
		expect(ci[0]).toBeLessThanOrEqual(run.metrics.dcg!.success_rate!);
		expect(ci[1]).toBeGreaterThanOrEqual(run.metrics.dcg!.success_rate!);
		expect(run.power.worst_case.dcg!.success_rate).toBeCloseTo(
			((1.959963984540054 + 0.8416212335729143) * Math.SQRT1_2) / Math.sqrt(35),
			12
		);
	});

	it('compares only stages complete in both runs, and says which were left out', async () => {
		const texts: Record<string, string> = {};
		for (const path of await files.list()) {
			if (path.includes('/r2/') && path.endsWith('LJP_gold.jsonl')) continue;
			texts[path] = await files.read(path);
		}
		const c = await compareRuns(memorySource(texts), {
			a: { runId: 'r1' },
			b: { runId: 'r2' },
			bootstrap: { resamples: 200 }
		});
		expect(c.metrics.ljp.gold).toBeNull();
		expect(c.metrics.ljp.direct).not.toBeNull();
		expect(c.notes.map((n) => english(n))).toContain(
			'B: LJP_gold is missing, so its figures are not compared'
		);
		expect(c.notes.map((n) => english(n))).toContain('the runs differ in models.evaluated');
	});
});

describe('formatComparison', () => {
	it('shows control characters of a model id as escapes, never raw', async () => {
		// Controls, a bidi override, a noncharacter, a lone surrogate: escaped as escapeControl does.
		const model = 'evil\u001b[31m\u202e\ufffe\ud800';
		const files = await randomRuns(12, [
			{ runId: 'r1', model, seed: 1 },
			{ runId: 'r2', model: 'plain', seed: 2 }
		]);
		const text = formatComparison(
			await compareRuns(files, {
				a: { runId: 'r1' },
				b: { runId: 'r2' },
				bootstrap: { resamples: 100 }
			})
		);
		expect(text).not.toContain('\u001b');
		expect(text).not.toContain('\u202e');
		expect(text).toContain('A  r1 / evil\\u001b[31m\\u202e\\ufffe\\ud800');
		expect(text).toContain(`A  r1 / ${escapeControl(model)}`);
		expect(text).toContain('LexPilot comparison: B − A on 12 paired cases');
	});
});

/**
 * Issue 14, item 8 (core and CLI): a file of a million broken cases gives millions of
 * problems; the loader keeps the first MAX_LISTED_PROBLEMS and counts the rest by kind (so
 * memory stays bounded), and `validate` prints those lines and one line saying how many more
 * of which kind, under a header counting them all.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadDataset } from '../../../src/lib/core/dataset/load';
import {
	MAX_LISTED_PROBLEMS,
	problem,
	ProblemCollector
} from '../../../src/lib/core/dataset/problems';
import { runCliInProcess } from '../../cli/run-cli';

const N = 100_000;
const empties = () => new TextEncoder().encode(`[${Array(N).fill('{}').join(',')}]`);

describe('the problem cap', () => {
	it('keeps the first problems and counts the rest by kind', () => {
		const c = new ProblemCollector();
		for (let i = 0; i < 1_000_000; i++) {
			c.add(problem({ caseIndex: i, field: i % 2 ? 'case_number' : 'result_dict' }, 'missing'));
		}
		const list = c.list();
		expect(c.total).toBe(1_000_000);
		expect(list).toHaveLength(MAX_LISTED_PROBLEMS + 1);
		expect(list.at(-1)!.text).toBe(
			'… and 999,500 more problems, not listed (by field: 499,750 result_dict, 499,750 case_number); fix the problems above and check again'
		);
	});

	it('counts at most 20 kinds apart, the rest as other', () => {
		const c = new ProblemCollector('problem', 0);
		for (let i = 0; i < 1000; i++) c.add(problem({ field: `dup-${i}` }, 'twice'));
		const kinds = c.moreByKind();
		expect(Object.keys(kinds)).toHaveLength(21);
		expect(kinds.other).toBe(980);
	});

	it(`loadDataset on ${N} empty cases: ${MAX_LISTED_PROBLEMS} listed, the total counted`, async () => {
		const result = await loadDataset(empties());
		expect(result.ok).toBe(false);
		if (result.ok) return;
		expect(result.problemCount).toBeGreaterThan(6 * N);
		expect(result.problems).toHaveLength(MAX_LISTED_PROBLEMS + 1);
		expect(Object.values(result.moreProblems).reduce((a, b) => a + b, 0)).toBe(
			result.problemCount - MAX_LISTED_PROBLEMS
		);
	}, 60_000);

	it(`validate on ${N} empty cases prints about ${MAX_LISTED_PROBLEMS} lines, not millions`, async () => {
		const dir = await mkdtemp(join(tmpdir(), 'lexpilot-cap-'));
		const path = join(dir, 'empties.json');
		await writeFile(path, empties());
		const r = await runCliInProcess(['validate', '--dataset', path]);
		expect(r.code).toBe(2);
		const lines = r.stderr.trimEnd().split('\n');
		expect(lines.length).toBeLessThanOrEqual(MAX_LISTED_PROBLEMS + 3);
		const total = Number(/\((\d+) problems\):/.exec(lines[0])![1]);
		expect(total).toBeGreaterThan(6 * N);
		expect(r.stderr).toMatch(
			/… and [\d,]+ more problems, not listed \(by field: [\d,]+ cause_of_action/
		);
		expect(r.stderr.length).toBeLessThan(100_000);
	}, 60_000);

	it("validate on the issue's 1,000,000 empty cases (3 MB) peaks under 512 MiB, not gigabytes", async () => {
		const dir = await mkdtemp(join(tmpdir(), 'lexpilot-cap-'));
		const path = join(dir, 'million.json');
		await writeFile(path, `[${Array(1_000_000).fill('{}').join(',')}]`);
		const probe = join(dir, 'probe.json');
		const root = resolve(import.meta.dirname, '../../..');
		// The built CLI as a user runs it, under the bench's probe (which records peak RSS).
		const code = await new Promise<number | null>((done, fail) => {
			const child = spawn(
				process.execPath,
				[
					'--import',
					'./tests/bench/cli-probe.js',
					'bin/lexpilot.js',
					'validate',
					'--dataset',
					path
				],
				{ cwd: root, env: { ...process.env, LEXPILOT_BENCH_PROBE: probe }, stdio: 'ignore' }
			);
			child.on('error', fail);
			child.on('close', done);
		});
		expect(code).toBe(2);
		const { maxRssKiB } = JSON.parse(await readFile(probe, 'utf8')) as { maxRssKiB: number };
		expect(maxRssKiB / 1024).toBeLessThan(512);
	}, 120_000);
});

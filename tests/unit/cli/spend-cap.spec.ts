/**
 * `lexpilot run --prices FILE --spend-cap AMOUNT`, through the CLI process: a plan passes its cap,
 * stops before another case starts and exits 4 with the spend; the same command again (no
 * --spend-cap) stays at the same cap with the spend continuing and starts nothing, and without
 * --prices is refused (nothing could be counted against the cap); each run says it is paused at
 * the cap; a higher cap runs it to the end, the spend kept with the plan under the output root.
 */
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliAsProcess } from '../../cli/run-cli';

const DATASET = resolve('tests/fixtures/engine/three-cases.json');
let tmp: string;

beforeAll(async () => {
	tmp = await mkdtemp(join(tmpdir(), 'lexpilot-spend-cap-'));
});
afterAll(async () => {
	await rm(tmp, { recursive: true, force: true });
});

/** The spend of the plan's saved record, and its cap. */
async function saved(root: string): Promise<{ cap: number; spent: number; capped: boolean }> {
	const [file] = await readdir(join(root, 'plans'));
	return JSON.parse(await readFile(join(root, 'plans', file), 'utf8'));
}

/** Answered calls in every run's call log. */
async function calls(root: string): Promise<number> {
	let n = 0;
	for (const run of ['run1', 'run2']) {
		const [model] = await readdir(join(root, 'runs', run)).catch(() => [] as string[]);
		if (!model) continue;
		const log = await readFile(join(root, 'runs', run, model, 'calls.jsonl'), 'utf8');
		n += log.split('\n').filter(Boolean).length;
	}
	return n;
}

describe('run with a spending cap (CLI process)', { timeout: 120_000 }, () => {
	it('stops at the cap, stays at it on the same command, and a higher cap finishes', async () => {
		const root = join(tmp, 'out');
		const prices = join(tmp, 'prices.json');
		const price = { input: 1, output: 1 };
		await writeFile(
			prices,
			JSON.stringify({
				currency: 'EUR',
				models: { 'simulated-strong': price, 'simulated-user': price, 'simulated-judge': price }
			})
		);
		const args = [
			'run',
			'--simulated',
			'--dataset',
			DATASET,
			'--output-root',
			root,
			'--model',
			'simulated-strong',
			'--repetitions',
			'2',
			'--run-id',
			'run',
			'--concurrency',
			'1',
			'--prices',
			prices
		];
		const first = await runCliAsProcess([...args, '--spend-cap', '0.03'], {});
		expect(first.code, first.stderr).toBe(4);
		expect(first.stderr).toMatch(
			/Paused at the spending cap: spent 0\.\d{4} of the cap 0\.0300 EUR\. Finished cases are saved/
		);
		// Each run of the plan says it is paused at the cap (a higher cap goes on), not "stopped
		// on request … run the same command again to resume", which the cap would hold.
		for (const run of ['run1', 'run2']) {
			expect(first.stdout).toMatch(
				new RegExp(`  ${run}  simulated-strong: paused at the spending cap; gen \\d/3, dcg`)
			);
			expect(first.stderr).toMatch(
				new RegExp(`  ${run} simulated-strong: paused at the spending cap; gen \\d/3, dcg`)
			);
		}
		expect(first.stdout).not.toContain('stopped on request');
		const capped = await saved(root);
		expect(capped).toMatchObject({ cap: 0.03, capped: true, currency: 'EUR' });
		expect(capped.spent).toBeGreaterThan(0.03);
		const callsAtCap = await calls(root);
		expect(callsAtCap).toBeGreaterThan(0);

		// The same command, no --spend-cap: the saved cap holds; nothing is called, the spend stays.
		const again = await runCliAsProcess(args, {});
		expect(again.code, again.stderr).toBe(4);
		expect(again.stderr).toContain(`spent ${capped.spent.toFixed(4)} of the cap 0.0300 EUR`);
		expect(await calls(root)).toBe(callsAtCap);

		// Without --prices nothing could be counted against the cap: refused, nothing is called
		// (it ran the plan to its end, the spend frozen below what it cost).
		const noPrices = await runCliAsProcess(
			args.filter((a) => a !== '--prices' && a !== prices),
			{}
		);
		expect(noPrices.code, noPrices.stderr).toBe(2);
		expect(noPrices.stderr).toContain(
			`this plan has a spending cap kept with it (spent ${capped.spent.toFixed(4)} of the cap 0.0300 EUR, plans/`
		);
		expect(noPrices.stderr).toContain('give --prices FILE to go on under it');
		expect(await calls(root)).toBe(callsAtCap);
		expect(await saved(root)).toMatchObject({ spent: capped.spent, cap: 0.03, capped: true });

		// A higher cap goes on from there, and the spend continues from the saved one.
		const raised = await runCliAsProcess([...args, '--spend-cap', '1000'], {});
		expect(raised.code, raised.stderr).toBe(0);
		expect(raised.stdout).toContain('2 of 2 completed');
		const end = await saved(root);
		expect(end).toMatchObject({ cap: 1000, capped: false });
		expect(end.spent).toBeGreaterThan(capped.spent);
		expect(await calls(root)).toBeGreaterThan(callsAtCap);
	});

	it('refuses a cap without prices, and an amount that is not one, with exit 2', async () => {
		const root = join(tmp, 'bad');
		const base = ['run', '--simulated', '--dataset', DATASET, '--output-root', root];
		const noPrices = await runCliAsProcess([...base, '--run-id', 'a', '--spend-cap', '1'], {});
		expect(noPrices.code).toBe(2);
		expect(noPrices.stderr).toContain('--spend-cap needs --prices FILE');
		const bad = await runCliAsProcess(
			[...base, '--run-id', 'a', '--prices', 'x.json', '--spend-cap=-1\u001b[31m'],
			{}
		);
		expect(bad.code).toBe(2);
		expect(bad.stderr).toContain('--spend-cap: "-1\\u001b[31m" is not an amount');
	});
});

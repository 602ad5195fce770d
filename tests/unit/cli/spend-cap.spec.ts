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
		// A run the cap paused says so (a higher cap goes on), not "stopped on request … run the
		// same command again to resume", which the cap would hold. Run 1 goes first (it may be done).
		expect(first.stdout).toMatch(
			/ {2}run2 {2}simulated-strong: paused at the spending cap; gen \d\/3, dcg/
		);
		expect(first.stderr).toMatch(
			/ {2}run2 simulated-strong: paused at the spending cap; gen \d\/3, dcg/
		);
		expect(first.stdout).toMatch(
			/ {2}run1 {2}simulated-strong: (completed|paused at the spending cap)/
		);
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

	it('a cap at half the cost leaves about half the runs complete, repetition 1 of each model first', async () => {
		const prices = join(tmp, 'prices-three.json');
		const price = { input: 1, output: 1 };
		const models = ['simulated-strong', 'simulated-weak', 'simulated-asks-always'];
		const priced = Object.fromEntries(
			[...models, 'simulated-user', 'simulated-judge'].map((m) => [m, price])
		);
		await writeFile(prices, JSON.stringify({ currency: 'USD', models: priced }));
		const args = (root: string) => [
			'run',
			'--simulated',
			'--dataset',
			DATASET,
			'--output-root',
			join(tmp, root),
			...models.flatMap((m) => ['--model', m]),
			'--repetitions',
			'2',
			'--run-id',
			'run',
			'--concurrency',
			'2',
			'--prices',
			prices
		];
		// What the whole plan of 3 models × 2 runs costs, run without a cap.
		const whole = await runCliAsProcess(args('whole'), {});
		expect(whole.code, whole.stderr).toBe(0);
		const cost = (await saved(join(tmp, 'whole'))).spent;

		const half = await runCliAsProcess([...args('half'), '--spend-cap', String(cost / 2)], {});
		expect(half.code, half.stderr).toBe(4);
		const completed = (run: string, model: string) =>
			half.stdout.includes(`  ${run}  ${model}: completed, 3 cases`);
		const done = models.flatMap((m) => ['run1', 'run2'].filter((r) => completed(r, m)));
		// Every run started its gen first before: at the cap none was complete (0 of 6).
		expect(half.stdout).toMatch(/: [234] of 6 completed\n/);
		expect(completed('run1', models[0]) && completed('run1', models[1])).toBe(true);
		if (!models.every((m) => completed('run1', m))) expect(done).not.toContain('run2');
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

/**
 * `run` against the stage commands, and the fault matrix under `run`. The reference is what the
 * five stage commands (gen, dcg, ljp-direct, ljp-gold, ljp-interaction) write through the real CLI
 * over real HTTP; `run` must write the very same files, and each fault row must end EITHER in
 * exactly those files, OR in a clear stop (exit 1 naming stage and case, nothing half-saved) that
 * a rerun of `run` without the fault completes to exactly those files.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STAGE_OUTPUTS, type StageName } from '../../../src/lib/core/protocol';
import type { StageFile } from '../../../src/lib/core/records';
import { runArgs, runCliInProcess } from '../../cli/run-cli';
import {
	about,
	CASE_E003_TEXT,
	CASES,
	callsBetween,
	cleanRun,
	comparableManifest,
	DATASET,
	Endpoint,
	filesUnder,
	firstAttempts,
	KEY,
	lateAnswer,
	perCase,
	runCli,
	savedRecords,
	stageFiles,
	type Fault
} from './harness';
import {
	CUT_OFF,
	FAST_RETRY,
	OUTAGES,
	RETRIES_EXHAUSTED,
	TRUNCATED,
	type RowEndpoint
} from './shared-rows';

const FIVE = ['gen', 'dcg', 'ljp-direct', 'ljp-gold', 'ljp-interaction'] as const;

let tmp: string;
let port: number;
let clean: Map<string, string>;
let cleanManifest: Record<string, unknown>;

beforeAll(async () => {
	tmp = await mkdtemp(join(tmpdir(), 'lexpilot-run-faults-'));
	({
		port,
		files: clean,
		manifest: cleanManifest
	} = await cleanRun(join(tmp, 'stage-commands'), FIVE));
}, 60_000);

afterAll(async () => {
	await rm(tmp, { recursive: true, force: true });
});

describe('run writes what the five stage commands write', () => {
	it('over HTTP: the same stage files byte for byte, and the same manifest', async () => {
		const endpoint = await Endpoint.start(port);
		const root = join(tmp, 'run-clean');
		try {
			const result = await runCli({
				command: 'run',
				root,
				endpoint,
				flags: ['--concurrency', '8']
			});
			expect(result.code, result.stderr).toBe(0);
			expect(result.stdout).toMatch(/ljp-interaction: 3 cases \(3 generated, 0 resumed\)/);
			// The progress ends with the whole run and each stage.
			expect(result.stderr).toMatch(/run +3\/3 cases +\d+\/\d+ calls .*concurrency 8 .*done in/);
		} finally {
			await endpoint.stop();
		}
		expect(await stageFiles(root)).toEqual(clean);
		expect(await comparableManifest(root)).toEqual(cleanManifest);
	});

	it('simulated: run and the stage commands write the same files', async () => {
		const byStages = join(tmp, 'sim-stages');
		const byRun = join(tmp, 'sim-run');
		const args = (command: string, root: string) =>
			runArgs(command, { dataset: DATASET, root, simulated: true });
		for (const command of FIVE) {
			const r = await runCliInProcess(args(command, byStages));
			expect(r.code, r.stderr).toBe(0);
		}
		const r = await runCliInProcess([...args('run', byRun), '--concurrency', 'auto']);
		expect(r.code, r.stderr).toBe(0);
		expect(r.stderr).toMatch(/concurrency \d+ \(auto, up to 64\)/);
		const [a, b] = [await stageFiles(byStages), await stageFiles(byRun)];
		expect(a.size).toBe(10);
		expect(b).toEqual(a);
	});

	it('resumes what stage commands saved: gen and dcg done, the LJP stages left', async () => {
		const endpoint = await Endpoint.start(port);
		const root = join(tmp, 'run-after-stages');
		try {
			for (const command of ['gen', 'dcg']) {
				expect((await runCli({ command, root, endpoint })).code).toBe(0);
			}
			const before = endpoint.requests.length;
			const result = await runCli({ command: 'run', root, endpoint });
			expect(result.code, result.stderr).toBe(0);
			expect(result.stdout).toMatch(/gen: 3 cases \(0 generated, 3 resumed\)/);
			expect(result.stdout).toMatch(/ljp-gold: 3 cases \(3 generated, 0 resumed\)/);
			// Only the LJP calls: 2 + 2 + 1 per case.
			expect(endpoint.requests.length - before).toBe(15);
		} finally {
			await endpoint.stop();
		}
		expect(await stageFiles(root)).toEqual(clean);
	});

	it('refuses an unknown stage and gen with lca, naming them', async () => {
		const endpoint = await Endpoint.start(port);
		try {
			const root = join(tmp, 'usage');
			const unknown = await runCli({
				command: 'run',
				root,
				endpoint,
				flags: ['--stages', 'gen,foo']
			});
			expect(unknown.code).toBe(2);
			expect(unknown.stderr).toMatch(/--stages: unknown stage "foo"/);
			const both = await runCli({ command: 'run', root, endpoint, flags: ['--stages', 'gen,lca'] });
			expect(both.code).toBe(2);
			expect(both.stderr).toMatch(/Name one of the two/);
			expect(endpoint.requests).toHaveLength(0);
		} finally {
			await endpoint.stop();
		}
	});
});

interface RunFaultRow {
	fault: string;
	expect: 'same records' | 'stop, then rerun';
	inject: (ctl: RowEndpoint & { interrupt(): void }) => Fault;
	flags?: string[];
	says?: RegExp[];
	/** @default 'names the case' */
	stop?: 'names the case' | 'on request';
	repair?: (ctl: RowEndpoint) => Promise<void>;
}

const ROWS: RunFaultRow[] = [
	{
		fault: '429 storm: every first attempt rate-limited',
		expect: 'same records',
		inject: () => firstAttempts(1, () => ({ status: 429, headers: FAST_RETRY })),
		says: [/retry: .*429/, /concurrency: http:\/\/127\.0\.0\.1:\d+\/v1 now [12] \(rate_limited\)/]
	},
	RETRIES_EXHAUSTED,
	{
		fault: '5xx burst',
		expect: 'same records',
		inject: () => callsBetween(6, 12, (i) => ({ status: [500, 502, 503, 504][i % 4] })),
		says: [/: 500 /, /: 504 /]
	},
	{
		fault: '5xx on every attempt for one case',
		expect: 'stop, then rerun',
		inject: () => about(CASE_E003_TEXT, { status: 502 }),
		flags: ['--retries', '1'],
		says: [/stopped at case #2 \(case_number E-003\).*502 Bad Gateway/]
	},
	TRUNCATED,
	{
		fault: 'truncated output on every attempt for one case',
		expect: 'stop, then rerun',
		inject: () => about(CASE_E003_TEXT, { content: CUT_OFF, finish_reason: 'length' }),
		flags: ['--retries', '1'],
		says: [/case_number E-003.*cut off at max_tokens 8192/s]
	},
	...OUTAGES,
	{
		fault: 'Ctrl+C mid-run',
		expect: 'stop, then rerun',
		inject:
			({ interrupt }) =>
			(req, { call }) => {
				if (call !== 12) return undefined;
				interrupt();
				return lateAnswer(req, 2000);
			},
		stop: 'on request'
	}
];

describe('fault matrix under run: same records, or a clear stop that a rerun completes', () => {
	// `$fault` in the title would quote the text and cut it at 40 characters; FAULTS.md names rows by it.
	it.each(ROWS.map((row) => [`${row.fault} → ${row.expect}`, row] as const))(
		'%s',
		{ timeout: 60_000 },
		async (_title, row) => {
			const root = join(tmp, `row-${row.fault.replace(/[^A-Za-z0-9]+/g, '-').slice(0, 50)}`);
			const endpoint = await Endpoint.start(port);
			const controller = new AbortController();
			try {
				endpoint.arm(row.inject({ endpoint, interrupt: () => controller.abort() }));
				const first = await runCli({
					command: 'run',
					root,
					endpoint,
					flags: row.flags,
					signal: controller.signal
				});
				for (const pattern of row.says ?? []) expect(first.stderr).toMatch(pattern);
				if (row.expect === 'same records') {
					expect(first.code, first.stderr).toBe(0);
				} else {
					const saved = await expectCleanStop(
						row.stop ?? 'names the case',
						first.stderr,
						first.code,
						root
					);
					endpoint.arm(null);
					await row.repair?.({ endpoint });
					const rerun = await runCli({ command: 'run', root, endpoint, flags: row.flags });
					expect(rerun.code, rerun.stderr).toBe(0);
					// Only what was missing was generated again.
					for (const [stage, cases] of saved) {
						expect(rerun.stdout).toContain(
							`  ${stage}: 3 cases (${3 - cases} generated, ${cases} resumed)`
						);
					}
				}
			} finally {
				await endpoint.stop();
			}
			expect(await stageFiles(root)).toEqual(clean);
			expect(await comparableManifest(root)).toEqual(cleanManifest);
			for (const [path, text] of await filesUnder(root)) {
				expect(path).not.toMatch(/\.lock$|\.tmp-/);
				expect(text, path).not.toContain(KEY);
			}
		}
	);
});

/**
 * Checks a stopped `run`: exit 1, the message (naming stage and case, or a stop on request, and
 * what is saved per stage), and that each case of each stage is saved whole (every record of every
 * file of the stage) or not at all, in the numbers the message gives. Returns stage → cases saved.
 */
async function expectCleanStop(
	how: 'names the case' | 'on request',
	stderr: string,
	code: number,
	root: string
): Promise<Map<string, number>> {
	expect(code, stderr).toBe(1);
	const head =
		how === 'names the case'
			? /error: (\S+) stopped at case #(\d) \(case_number ([^)]+)\):/
			: /error: run stopped on request;/;
	expect(stderr).toMatch(head);
	const perStage =
		/(\d) of 3 cases are saved for every stage \(cases saved per stage: ([^)]*)\)/.exec(stderr);
	expect(perStage, stderr).not.toBeNull();
	const saved = new Map(
		perStage![2].split(', ').map((part) => {
			const [stage, n] = part.split(' ');
			return [stage, Number(n)] as const;
		})
	);
	expect([...saved.keys()]).toEqual([...FIVE]);
	const counts = await savedRecords(root, clean);
	const whole = (file: StageFile) =>
		[...counts.get(file)!].filter(([, n]) => n === perCase(file)).map(([c]) => c);
	for (const [stage, n] of saved) {
		for (const file of STAGE_OUTPUTS[stage as StageName]) {
			// No case is half-saved: every case with a record has all its records in every file.
			expect([...counts.get(file)!.keys()].sort(), file).toEqual(whole(file).sort());
			expect(whole(file), `${stage}: ${file}`).toHaveLength(n);
		}
	}
	if (how === 'names the case') {
		const [, stage, index, caseNumber] = head.exec(stderr)!;
		expect(String(CASES[Number(index)])).toBe(caseNumber);
		expect(whole(STAGE_OUTPUTS[stage as StageName].at(-1)!)).not.toContain(caseNumber);
	}
	// Cases saved for every stage, as the message says.
	const everyStage = CASES.filter((c) =>
		[...saved.keys()].every((stage) =>
			STAGE_OUTPUTS[stage as StageName].every((f) => whole(f).includes(c))
		)
	);
	expect(everyStage).toHaveLength(Number(perStage![1]));
	return saved;
}

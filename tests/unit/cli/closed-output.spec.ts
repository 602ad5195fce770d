/**
 * `lexpilot run … 2>&1 | head`: the reader of the CLI's output goes away mid-run. The CLI
 * process (`bin/lexpilot.js`) must end as an interrupted run does (Ctrl+C): exit 1, finished
 * cases kept, the lock released, and the same command resumes.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runArgs, runCliAsProcess, runCliInProcess } from '../../cli/run-cli';
import { DATASET, Endpoint, KEY, lateAnswer, MODELS } from '../faults/harness';

let tmp: string;
let endpoint: Endpoint;

beforeAll(async () => {
	tmp = await mkdtemp(join(tmpdir(), 'lexpilot-closed-output-'));
	endpoint = await Endpoint.start();
});
afterAll(async () => {
	await endpoint.stop();
	await rm(tmp, { recursive: true, force: true });
});

/** Every lock file left under `root`. */
async function locks(root: string): Promise<string[]> {
	const entries = await readdir(root, { recursive: true });
	return entries.filter((p) => p.endsWith('.lock'));
}

describe('a closed output (the CLI process)', { timeout: 120_000 }, () => {
	it.each(['stdout and stderr (2>&1 | head)', 'stdout only (| head)'])(
		'%s: ends as an interrupted run, the lock released; the same command resumes',
		async (which) => {
			const root = join(tmp, which.startsWith('stdout only') ? 'stdout' : 'both');
			const args = runArgs(
				'run',
				{ dataset: DATASET, root },
				...['--model', MODELS.evaluated, '--user-model', MODELS.user],
				...['--judge-model', MODELS.judge, '--concurrency', '1']
			);
			const env = { OPENAI_BASE_URL: endpoint.baseURL, OPENAI_API_KEY: KEY };
			// Slow answers: the run is still going when its reader goes away.
			endpoint.arm((req) => lateAnswer(req, 40));
			const r = await runCliAsProcess(args, env, (child) => {
				// The reader (`head`) has what it wanted after the first line, and exits.
				child.stderr!.once('data', () => {
					child.stdout!.destroy();
					if (!which.startsWith('stdout only')) child.stderr!.destroy();
				});
			});
			endpoint.arm(null);
			expect(r.code, r.stderr).toBe(1);
			expect(r.stderr).not.toMatch(/EPIPE|Unhandled|at .*\.js:\d+/);
			expect(await locks(root)).toEqual([]);
			const rerun = await runCliInProcess(args, { env });
			expect(rerun.code, rerun.stderr).toBe(0);
			expect(rerun.stdout).toMatch(/resumed/);
			// With stderr closed too, the run stopped at the first progress line, cases to go.
			if (!which.startsWith('stdout only')) expect(rerun.stdout).toMatch(/[1-9]\d* generated/);
		}
	);
});

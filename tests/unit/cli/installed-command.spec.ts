/**
 * The installed command (`npx lexpilot`, `npm run lexpilot --`): a `bin` entry running the CLI
 * bundled by scripts/build-cli.js, rebuilt when a source file changes, and relative paths taken
 * from the directory the user typed the command in.
 */
import { execFile } from 'node:child_process';
import {
	accessSync,
	constants,
	copyFileSync,
	mkdirSync,
	mkdtempSync,
	readFileSync,
	rmSync,
	utimesSync,
	writeFileSync
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { buildCli, isStale, metaPathOf } from '../../../scripts/build-cli.js';

const ROOT = resolve(__dirname, '../../..');
/**
 * Inside the project (a bundle there resolves node_modules as an installed one does); the folder
 * is gitignored and absent on a fresh clone.
 */
const PROJECT_TMP = join(ROOT, 'tmp');
mkdirSync(PROJECT_TMP, { recursive: true });
const exec = promisify(execFile);
const temporary: string[] = [];
afterAll(() => {
	for (const dir of temporary) rmSync(dir, { recursive: true, force: true });
});

/** The environment of a user's shell: no npm variables inherited from the test runner. */
function shellEnv(): NodeJS.ProcessEnv {
	return Object.fromEntries(
		Object.entries(process.env).filter(([k]) => !/^(npm_|INIT_CWD$)/i.test(k))
	);
}

describe('the lexpilot command', () => {
	it('is a bin entry, an executable node script, and what npm run lexpilot runs', () => {
		const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
		expect(pkg.bin).toEqual({ lexpilot: 'bin/lexpilot.js' });
		expect(pkg.scripts.lexpilot).toBe('node bin/lexpilot.js');
		// npm ci builds it; a failed build must not fail npm ci (the first run builds instead).
		expect(pkg.scripts.prepare).toMatch(/node scripts\/build-cli\.js \|\| /);
		expect(pkg.dependencies.esbuild).toMatch(/^\d+\.\d+\.\d+$/);
		const bin = join(ROOT, 'bin/lexpilot.js');
		expect(readFileSync(bin, 'utf8').startsWith('#!/usr/bin/env node\n')).toBe(true);
		accessSync(bin, constants.X_OK);
	});

	it('--help runs the bundle, which needs no TypeScript and no node_modules', async () => {
		const { stdout } = await exec(process.execPath, ['bin/lexpilot.js', '--help'], { cwd: ROOT });
		expect(stdout).toMatch(/^Usage: npx lexpilot <command>/);
		expect(isStale()).toBe(false);
		// A copy far from node_modules still starts: everything it needs is inside.
		const far = mkdtempSync(join(tmpdir(), 'lexpilot-bundle-'));
		temporary.push(far);
		copyFileSync(join(ROOT, 'dist/cli/lexpilot.mjs'), join(far, 'lexpilot.mjs'));
		const copy = await exec(process.execPath, [join(far, 'lexpilot.mjs'), '--help'], { cwd: far });
		expect(copy.stdout).toContain('validate');
		expect(copy.stdout).toContain('results');
	}, 60_000);

	it('a bundle is stale when missing, when a source is newer, or when one is gone', async () => {
		const out = mkdtempSync(join(PROJECT_TMP, 'cli-build-'));
		temporary.push(out);
		const outfile = join(out, 'lexpilot.mjs');
		expect(isStale({ outfile })).toBe(true);
		const { inputs } = await buildCli({ outfile });
		expect(inputs).toContain('src/cli/bin.ts');
		expect(inputs).toContain('src/lib/core/records.ts');
		expect(inputs.some((p) => p.includes('node_modules'))).toBe(false);
		expect(isStale({ outfile })).toBe(false);

		const meta = JSON.parse(readFileSync(metaPathOf(outfile), 'utf8'));
		const source = join(out, 'touched.ts');
		writeFileSync(source, '');
		writeFileSync(metaPathOf(outfile), JSON.stringify({ ...meta, inputs: [source] }));
		const future = new Date(Date.now() + 60_000);
		utimesSync(source, future, future);
		expect(isStale({ outfile })).toBe(true);
		writeFileSync(
			metaPathOf(outfile),
			JSON.stringify({ ...meta, inputs: [join(out, 'removed.ts')] })
		);
		expect(isStale({ outfile })).toBe(true);
	}, 60_000);
});

describe('relative paths are the user’s', () => {
	it('npm run lexpilot from a subfolder resolves --dataset from that subfolder (INIT_CWD)', async () => {
		const base = mkdtempSync(join(PROJECT_TMP, 'user-cwd-'));
		temporary.push(base);
		const sub = join(base, 'sub');
		mkdirSync(sub);
		copyFileSync(join(ROOT, 'static/sample/lexpilot-sample.json'), join(base, 'mine.json'));
		const { stdout } = await exec(
			'npm',
			['run', '--silent', 'lexpilot', '--', 'validate', '--dataset', '../mine.json'],
			{ cwd: sub, env: shellEnv() }
		);
		expect(stdout).toContain('../mine.json: valid LexPilot dataset');
	}, 60_000);
});

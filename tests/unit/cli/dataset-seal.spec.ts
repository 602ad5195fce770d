/**
 * The dataset seal (src/cli/dataset-seal.ts): a generation command resuming a finished run whose
 * dataset file, flags, category file and code are unchanged does not parse the dataset; any
 * difference does, and what the command prints and exits with is what the full path gives.
 * Dataset parses are counted at the loader (`loadDataset`), not timed.
 */
import { appendFile, copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sealFilePath } from '../../../src/lib/adapters/fs-store';
import { modelDirName, stageFilePath, type RunKey } from '../../../src/lib/core/layout';
import { DEFAULT_PROMPT_PACK, exportPromptPack } from '../../../src/lib/core/prompts';
import { runCliInProcess } from '../../cli/run-cli';
import { editKeepingSizeAndTimes } from '../../support/file-edits';

const loads = vi.hoisted(() => ({ count: 0 }));
vi.mock('../../../src/lib/core/dataset/load', async (importOriginal) => {
	const real = await importOriginal<typeof import('../../../src/lib/core/dataset/load')>();
	return {
		...real,
		loadDataset: (...args: Parameters<typeof real.loadDataset>) => {
			loads.count++;
			return real.loadDataset(...args);
		}
	};
});

const FIXTURE = resolve('tests/fixtures/engine/three-cases.json');
let tmp: string;
let dataset: string;
let root: string;

beforeEach(async () => {
	tmp = await mkdtemp(join(tmpdir(), 'lexpilot-dataset-seal-'));
	dataset = join(tmp, 'cases.json');
	root = join(tmp, 'out');
	await copyFile(FIXTURE, dataset);
	loads.count = 0;
});
afterEach(() => rm(tmp, { recursive: true, force: true }));

/** Runs a generation command on the copied dataset, offline; `loads` counts its dataset parses. */
async function cli(command: string, extra: string[] = []) {
	loads.count = 0;
	const result = await runCliInProcess(
		[
			command,
			'--simulated',
			'--dataset',
			dataset,
			'--output-root',
			root,
			'--run-id',
			'r1',
			...extra
		],
		{ cwd: tmp }
	);
	return { ...result, parses: loads.count };
}

const runKey = async (): Promise<RunKey> => ({
	runId: 'r1',
	modelDir: await modelDirName('simulated')
});

async function seals(): Promise<{ dataset?: unknown; stages: Record<string, unknown> }> {
	return JSON.parse(await readFile(join(root, sealFilePath(await runKey())), 'utf8'));
}

/** Drops the dataset seal, so the next start takes the full path (as before this seal existed). */
async function dropDatasetSeal(): Promise<void> {
	const file = join(root, sealFilePath(await runKey()));
	const seals = JSON.parse(await readFile(file, 'utf8'));
	delete seals.dataset;
	await writeFile(file, JSON.stringify(seals));
}

describe('resuming a finished run from the dataset seal', { timeout: 60_000 }, () => {
	it('does not parse the dataset, and prints and exits exactly as a full resume does', async () => {
		const first = await cli('run');
		expect(first.code, first.stderr).toBe(0);
		expect(first.parses).toBe(1);
		expect((await seals()).dataset).toBeDefined();

		const sealed = await cli('run');
		expect(sealed.code, sealed.stderr).toBe(0);
		expect(sealed.parses).toBe(0);
		expect(sealed.stdout).toMatch(/^Resumed run r1 /);
		expect(sealed.stdout).toContain('gen: 3 cases (0 generated, 3 resumed)');

		// The same start without the dataset seal parses the file and says the same.
		await dropDatasetSeal();
		const full = await cli('run');
		expect(full.parses).toBe(1);
		expect([full.code, full.stdout, full.stderr]).toEqual([
			sealed.code,
			sealed.stdout,
			sealed.stderr
		]);

		// The stage commands read the same seal.
		for (const command of ['gen', 'dcg', 'ljp']) {
			const again = await cli(command);
			expect([command, again.code, again.parses]).toEqual([command, 0, 0]);
			expect(again.stdout).toMatch(/\(0 generated, 3 resumed\)/);
		}
	});

	it('a run sealed before the dataset seal existed gets it at its next start', async () => {
		expect((await cli('run')).code).toBe(0);
		await dropDatasetSeal();
		expect((await cli('gen')).parses).toBe(1);
		expect((await seals()).dataset).toBeDefined();
		expect((await cli('gen')).parses).toBe(0);
	});

	it('does not trust the seal once the dataset was edited in place, size and time kept', async () => {
		expect((await cli('run')).code).toBe(0);
		const text = await readFile(dataset, 'utf8');
		const at = [...text].findIndex((c) => c >= '\u4e00' && c <= '\u9fff');
		const from = [...text].slice(at, at + 1).join('');
		const to = from === '甲' ? '乙' : '甲';
		const context = [...text].slice(at, at + 8).join('');
		await editKeepingSizeAndTimes(dataset, context, to + context.slice(1));

		const edited = await cli('run');
		expect(edited.parses).toBe(1);
		// What the full path says of a changed dataset under the same run id.
		expect(edited.code).toBe(2);
		expect(edited.stderr).toMatch(/dataset\.sha256/);
	});

	it('a changed selection, history-field flag or prompt pack answers as the full path does', async () => {
		expect((await cli('run')).code).toBe(0);
		const packFile = join(tmp, 'pack.json');
		await writeFile(
			packFile,
			exportPromptPack({
				...DEFAULT_PROMPT_PACK,
				name: 'edited',
				templates: {
					...DEFAULT_PROMPT_PACK.templates,
					force_judge: `请仔细阅读。${DEFAULT_PROMPT_PACK.templates.force_judge}`
				}
			})
		);
		const changes = [
			['--limit', '2'],
			['--prompts', 'pack.json']
		];
		const outcomes = [];
		for (const change of changes) {
			const sealed = await cli('run', change);
			expect(sealed.code, `${change.join(' ')}: ${sealed.stderr}`).toBe(2);
			outcomes.push({ code: sealed.code, stdout: sealed.stdout, stderr: sealed.stderr });
		}
		// A flag of the dataset's reading is part of the key: the file is parsed (here the flag
		// names the field the loader detects, so the run itself is unchanged), then sealed again.
		const named = ['--complete-field', 'complete_consultation'];
		expect(await cli('run', named)).toMatchObject({ code: 0, parses: 1 });
		expect(await cli('run', named)).toMatchObject({ code: 0, parses: 0 });
		expect((await cli('run')).parses).toBe(1);

		await dropDatasetSeal();
		const full = [];
		for (const change of changes) {
			const again = await cli('run', change);
			expect(again.parses).toBe(1);
			full.push({ code: again.code, stdout: again.stdout, stderr: again.stderr });
		}
		expect(outcomes).toEqual(full);
		// Nothing of the run changed: the next start still has nothing to do.
		expect((await cli('run')).stdout).toContain(
			'ljp-interaction: 3 cases (0 generated, 3 resumed)'
		);
	});

	it('a record appended or torn off unseals its stage: the dataset is parsed and the stage checked', async () => {
		expect((await cli('run')).code).toBe(0);
		const file = join(root, stageFilePath(await runKey(), 'DCG_results'));
		const lines = (await readFile(file, 'utf8')).split('\n').filter(Boolean);
		// The last record cut in half, as a crash mid-write leaves it.
		await writeFile(file, `${lines.slice(0, -1).join('\n')}\n${lines.at(-1)!.slice(0, 40)}`);

		const torn = await cli('run');
		expect(torn.code, torn.stderr).toBe(0);
		expect(torn.parses).toBe(1);
		expect(torn.stdout).toContain('dcg: 3 cases (1 generated, 2 resumed)');

		// An appended copy of a saved record: the full check refuses it, as without the seal.
		const saved = (await readFile(file, 'utf8')).split('\n').filter(Boolean);
		await appendFile(file, `${saved[0]}\n`);
		const appended = await cli('dcg');
		expect(appended.parses).toBe(1);
		expect(appended.code).toBe(2);
		expect(appended.stderr).toMatch(/DCG_results\.jsonl/);
	});

	it('a changed category file, or a damaged seal, takes the full path', async () => {
		const categories = join(tmp, 'categories.json');
		await writeFile(categories, JSON.stringify({ 民间借贷纠纷: '合同纠纷' }));
		expect((await cli('run', ['--categories', categories])).code).toBe(0);
		expect((await cli('run', ['--categories', categories])).parses).toBe(0);

		await writeFile(categories, JSON.stringify({ 民间借贷纠纷: '债权纠纷' }));
		expect((await cli('run', ['--categories', categories])).parses).toBe(1);
		expect((await cli('run', ['--categories', categories])).parses).toBe(0);

		// Facts that are not what the CLI writes, under the right key: ignored, never half used.
		const file = join(root, sealFilePath(await runKey()));
		const saved = JSON.parse(await readFile(file, 'utf8'));
		saved.dataset.facts.caseNumbers = 'not a list';
		await writeFile(file, JSON.stringify(saved));
		const damaged = await cli('run', ['--categories', categories]);
		expect([damaged.code, damaged.parses]).toEqual([0, 1]);
	});
});

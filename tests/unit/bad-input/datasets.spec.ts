/**
 * The bad-input dataset corpus: one malformed file per PROTOCOL.md §1 rule, each run
 * through `validate` and through a generation command. Both exit 2 and list every problem with
 * its place; the generation command makes no call and writes nothing.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliInProcess } from '../../cli/run-cli';
import {
	BAD_INPUT_DIR,
	placeOf,
	readCorpus,
	type CorpusEntry
} from '../../fixtures/bad-input/corpus';
import { corpusFiles } from '../../fixtures/bad-input/generate';
import { startFakeOpenAI, type FakeOpenAI } from '../../fake-openai/server';

const corpus = readCorpus();
/** Paths as a user types them, relative to the working directory, so messages show them. */
const DIR = relative(process.cwd(), BAD_INPUT_DIR);
const GENERATION_COMMANDS = [
	'gen',
	'lca',
	'dcg',
	'ljp-direct',
	'ljp-gold',
	'ljp-interaction',
	'ljp'
];

let tmp: string;
/** Must see no request at all: an invalid dataset is refused before any call. */
let server: FakeOpenAI;

beforeAll(async () => {
	tmp = await mkdtemp(join(tmpdir(), 'lexpilot-bad-input-'));
	server = await startFakeOpenAI();
});

afterAll(async () => {
	await server.close();
	await rm(tmp, { recursive: true, force: true });
});

const cli = (args: string[]) =>
	runCliInProcess(args, {
		env: { OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: 'sk-bad-input' }
	});

function inputFlags(entry: CorpusEntry): string[] {
	return [
		'--dataset',
		`${DIR}/datasets/${entry.file}`,
		...(entry.flags ?? []),
		...(entry.categories ? ['--categories', `${DIR}/${entry.categories}`] : [])
	];
}

/** The report names every expected problem at its place, and no other problem. */
function expectReport(stderr: string, entry: CorpusEntry) {
	const label = `${DIR}/datasets/${entry.file}`;
	if (entry.categories) {
		// A bad map stops before the dataset is checked, naming the map file.
		expect(stderr).toContain(`${DIR}/${entry.categories}`);
		for (const p of entry.problems) expect(stderr).toContain(p.says);
		return;
	}
	const n = entry.problems.length;
	expect(stderr).toContain(
		`${label} is not a valid LexPilot dataset (${n} problem${n === 1 ? '' : 's'}):\n`
	);
	const lines = stderr.split('\n').filter((l) => l.startsWith('  '));
	expect(lines, stderr).toHaveLength(n);
	for (const p of entry.problems) {
		const place = placeOf(p, label);
		const found = lines.some(
			(l) => (place === null || l.startsWith(`  ${place}: `)) && l.includes(p.says)
		);
		expect(found, `no line "${place ?? ''}: …${p.says}…" in:\n${stderr}`).toBe(true);
	}
	if (entry.hint) expect(stderr).toContain(entry.hint);
}

describe('the corpus', () => {
	it('is what generate.ts writes, one dataset per manifest entry', () => {
		for (const [path, content] of corpusFiles()) {
			const expected = typeof content === 'string' ? Buffer.from(content) : Buffer.from(content);
			expect(readFileSync(join(BAD_INPUT_DIR, path)).equals(expected), path).toBe(true);
		}
		const files = readdirSync(join(BAD_INPUT_DIR, 'datasets')).sort();
		expect(files).toEqual(['valid.json', ...corpus.map((e) => e.file)].sort());
	});

	it('breaks valid.json, which validates, so each file fails only for its own rule', async () => {
		const result = await cli(['validate', '--dataset', `${DIR}/datasets/valid.json`]);
		expect(result.code, result.stderr).toBe(0);
		expect(result.stdout).toContain('cases           3');
	});
});

describe('bad datasets: validate and every generation command exit 2, naming the place', () => {
	const rows = corpus.map((entry, i) => ({
		...entry,
		command: GENERATION_COMMANDS[i % GENERATION_COMMANDS.length]
	}));

	// Titles written out: `$file` would quote the text and cut it at 40 characters. The file's
	// name says what is broken; manifest.json gives the rule it breaks.
	it.each(rows.map((e) => [`${e.file} → validate, ${e.command}`, e] as const))(
		'%s',
		async (_title, entry) => {
			const checked = await cli(['validate', ...inputFlags(entry)]);
			expect(checked.code, checked.stderr).toBe(2);
			expect(checked.stdout).toBe('');
			expectReport(checked.stderr, entry);

			const root = join(tmp, entry.file);
			const run = await cli([
				entry.command,
				...inputFlags(entry),
				'--output-root',
				root,
				'--run-id',
				'r1',
				'--model',
				'eval-model'
			]);
			expect(run.code, run.stderr).toBe(2);
			expect(run.stderr).toMatch(/^error: /);
			expectReport(run.stderr, entry);
			expect(existsSync(root), `${root} was created`).toBe(false);
			expect(server.requests).toEqual([]);
		}
	);
});

/**
 * Malformed bundles: each damaged copy of a real run goes through the bundle
 * importer (`readZipBundle` → `importRuns`) into an IndexedDB store that already holds a run,
 * and, when it can exist as a folder on disk, through `results`. Each is refused with a message
 * naming the file (and line), and what is stored stays exactly as it was.
 */
import 'fake-indexeddb/auto';
import { strToU8, Zip, ZipDeflate, zipSync } from 'fflate';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { importRuns } from '../../../src/lib/adapters/idb-import';
import { readRunFiles } from '../../../src/lib/adapters/idb-layout-source';
import { listStoredRuns } from '../../../src/lib/adapters/idb-listing';
import type { IdbStore } from '../../../src/lib/adapters/idb-store';
import {
	BundleError,
	readZipBundle,
	unzipBundle,
	type BundleLimits,
	type BundleRun
} from '../../../src/lib/adapters/zip-bundle';
import {
	manifestPath,
	modelDirName,
	stageFilePath,
	type RunKey
} from '../../../src/lib/core/layout';
import type { StageFile } from '../../../src/lib/core/records';
import { MemoryStore } from '../../../src/lib/core/store/memory-store';
import { runCliInProcess } from '../../cli/run-cli';
import { writeRuns } from '../../fixtures/bundles/runs';
import { closeTestStores, openTestStore, rawDbOf } from '../../support/idb';
import { makeDataset } from '../../fixtures/engine/cases';

type Files = Map<string, string>;

/** Layout paths of the bundle's run. */
interface Paths {
	manifest: string;
	stage(file: StageFile): string;
	/** The run's model folder name. */
	dir: string;
	/** case_number of the first case. */
	first: string;
}

/** How a consumer names a file of the bundle in its messages. */
type At = (path: string) => string;

interface BundleRow {
	bundle: string;
	/** The damaged files (a folder on disk, or zipped for the importer). */
	files?: (files: Files, p: Paths) => Files;
	/** The archive itself, for damage only a zip can carry. */
	zip?: (files: Files, p: Paths) => Uint8Array;
	/** Importer limits; the defaults (100 MB a file, 512 MB in all) when left out. */
	limits?: BundleLimits;
	/** Text the importer's message holds; `at` names a file as the importer does. */
	importer: (at: At, p: Paths) => string[];
	/** Text `results` prints (exit 2) for the same damage as a folder; null: not a folder's. */
	results: ((at: At, p: Paths) => string[]) | null;
}

function lines(text: string): string[] {
	return text.split('\n').slice(0, -1);
}

/** `files` with line `n` (1-based) of `path` replaced. */
function editLine(files: Files, path: string, n: number, edit: (line: string) => string): Files {
	const all = lines(files.get(path)!);
	all[n - 1] = edit(all[n - 1]);
	return new Map(files).set(path, all.map((l) => `${l}\n`).join(''));
}

/** `files` with the record on line `n` of `path` changed. */
function editRecord(
	files: Files,
	path: string,
	n: number,
	edit: (record: Record<string, unknown>) => void
): Files {
	return editLine(files, path, n, (line) => {
		const record = JSON.parse(line);
		edit(record);
		return JSON.stringify(record);
	});
}

function zipOf(files: Map<string, string | Uint8Array>): Uint8Array {
	return zipSync(
		Object.fromEntries(
			[...files].map(([path, content]) => [
				path,
				typeof content === 'string' ? strToU8(content) : content
			])
		)
	);
}

/**
 * A real zip bomb: the bundle's files plus `path` holding `mib` MiB of zeros, deflated as a
 * stream (about 1000 to 1) so the test never holds the unpacked bytes.
 */
function bombZip(files: Files, path: string, mib: number): Uint8Array {
	const chunks: Uint8Array[] = [];
	const zip = new Zip((error, data) => {
		if (error) throw error;
		chunks.push(data);
	});
	for (const [name, text] of files) {
		if (name === path) continue;
		const entry = new ZipDeflate(name);
		zip.add(entry);
		entry.push(strToU8(text), true);
	}
	const bomb = new ZipDeflate(path, { level: 1 });
	zip.add(bomb);
	const zeros = new Uint8Array(1024 * 1024);
	for (let i = 0; i < mib; i++) bomb.push(zeros, i === mib - 1);
	zip.end();
	const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
	let offset = 0;
	for (const c of chunks) {
		out.set(c, offset);
		offset += c.length;
	}
	return out;
}

/** Rewrites the uncompressed size the zip declares for `path` (central directory and local header). */
function understate(zip: Uint8Array, path: string, size: number): Uint8Array {
	const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
	const end = zip.length - 22;
	const count = view.getUint16(end + 10, true);
	let at = view.getUint32(end + 16, true);
	for (let i = 0; i < count; i++) {
		const nameLength = view.getUint16(at + 28, true);
		const name = new TextDecoder().decode(zip.subarray(at + 46, at + 46 + nameLength));
		if (name === path) {
			view.setUint32(at + 24, size, true);
			view.setUint32(view.getUint32(at + 42, true) + 22, size, true);
			return zip;
		}
		at += 46 + nameLength + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
	}
	throw new Error(`${path} is not in the zip`);
}

const ROWS: BundleRow[] = [
	{
		bundle: 'a line that is not JSON',
		files: (f, p) => editLine(f, p.stage('LCA_results'), 2, () => '{"case_number": "x", label}'),
		importer: (at, p) => [`${at(p.stage('LCA_results'))}, line 2: not valid JSON`],
		results: (at, p) => [`${at(p.stage('LCA_results'))}, line 2: not valid JSON`]
	},
	{
		bundle: 'a last line cut off mid-record (no line end)',
		files: (f, p) => {
			const text = f.get(p.stage('DCG_results'))!;
			return new Map(f).set(p.stage('DCG_results'), text.slice(0, text.length - 40));
		},
		importer: (at, p) => [
			`${at(p.stage('DCG_results'))}, line 3: the last line has no line end, so it was cut off`
		],
		results: (at, p) => [`${at(p.stage('DCG_results'))}, line 3: the last line has no line end`]
	},
	{
		bundle: 'an empty line between records',
		files: (f, p) => editLine(f, p.stage('LJP_gold'), 1, (l) => `${l}\n`),
		importer: (at, p) => [`${at(p.stage('LJP_gold'))}, line 2: empty line`],
		results: (at, p) => [`${at(p.stage('LJP_gold'))}, line 2: empty line`]
	},
	{
		bundle: 'a record of the wrong schema (LCA label "maybe")',
		files: (f, p) => editRecord(f, p.stage('LCA_results'), 3, (r) => (r.label = 'maybe')),
		importer: (at, p) => [`${at(p.stage('LCA_results'))}, line 3: field "label"`],
		results: (at, p) => [`${at(p.stage('LCA_results'))}, line 3: field "label"`]
	},
	{
		bundle: 'a record without a required field (LJP predicted)',
		files: (f, p) => editRecord(f, p.stage('LJP_direct'), 2, (r) => delete r.predicted),
		importer: (at, p) => [`${at(p.stage('LJP_direct'))}, line 2: field "predicted"`],
		results: (at, p) => [`${at(p.stage('LJP_direct'))}, line 2: field "predicted"`]
	},
	{
		bundle: 'a record of a case the run did not select',
		files: (f, p) => editRecord(f, p.stage('LJP_gold'), 2, (r) => (r.case_number = 'X-999')),
		importer: (at, p) => [
			`${at(p.stage('LJP_gold'))}, line 2: case_number X-999 is not one of the run's 3 selected cases`
		],
		results: (at, p) => [
			`${at(p.stage('LJP_gold'))}, line 2: case_number X-999 is not one of the run's 3 selected cases`
		]
	},
	{
		bundle: 'a case saved twice',
		files: (f, p) => {
			const first = lines(f.get(p.stage('DCG_results'))!)[0];
			return editLine(f, p.stage('DCG_results'), 3, () => first);
		},
		importer: (at, p) => [
			`${at(p.stage('DCG_results'))}, line 3: case_number ${p.first} already has a record on line 1`
		],
		results: (at, p) => [
			`${at(p.stage('DCG_results'))}, line 3: case_number ${p.first} already has a record on line 1`
		]
	},
	{
		bundle: "stage files that disagree about a case's cause_of_action",
		files: (f, p) =>
			editRecord(f, p.stage('LJP_direct'), 1, (r) => (r.cause_of_action = '买卖合同纠纷')),
		importer: (at, p) => [
			`${at(p.stage('LJP_direct'))}, line 1: case_number ${p.first} has cause_of_action "买卖合同纠纷", ` +
				`but "民间借贷纠纷" at ${at(p.stage('LCA_results'))}, line 1`
		],
		results: (at, p) => [
			`${at(p.stage('LJP_direct'))}, line 1: case_number ${p.first} has cause_of_action "买卖合同纠纷", ` +
				`but "民间借贷纠纷" at ${at(p.stage('LCA_results'))}, line 1`
		]
	},
	{
		bundle: 'LJP setups that score other gold verdicts',
		files: (f, p) =>
			editRecord(f, p.stage('LJP_gold'), 1, (r) => (r.gold = [...(r.gold as string[])].reverse())),
		importer: (at, p) => [
			`${at(p.stage('LJP_gold'))}, line 1: case_number ${p.first} has other claims or gold verdicts ` +
				`than at ${at(p.stage('LJP_direct'))}, line 1`
		],
		results: (at, p) => [
			`${at(p.stage('LJP_gold'))}, line 1: case_number ${p.first} has other claims or gold verdicts ` +
				`than at ${at(p.stage('LJP_direct'))}, line 1`
		]
	},
	{
		bundle: 'a run without its manifest',
		files: (f, p) => {
			const copy = new Map(f);
			copy.delete(p.manifest);
			return copy;
		},
		importer: (at, p) => [
			`${at(p.manifest)} is missing, so the run's 10 stage files (AwN_gen/run1/${p.dir}/a1.jsonl`
		],
		results: (at, p) => [
			'error: no runs under',
			`note: ${at(p.manifest)} is missing, so eval_results/run1/${p.dir}/DCG_results.jsonl`,
			'cannot be scored'
		]
	},
	{
		bundle: 'a manifest that is not JSON',
		files: (f, p) => new Map(f).set(p.manifest, f.get(p.manifest)!.slice(0, 100)),
		importer: (at, p) => [`${at(p.manifest)}: not valid JSON`],
		results: (at, p) => [`${at(p.manifest)}: not valid JSON`, 'Restore the manifest of this run']
	},
	{
		bundle: 'a manifest of the wrong schema (no models.evaluated)',
		files: (f, p) => {
			const manifest = JSON.parse(f.get(p.manifest)!);
			delete manifest.models.evaluated;
			return new Map(f).set(p.manifest, JSON.stringify(manifest, null, 2));
		},
		importer: (at, p) => [`${at(p.manifest)}: not a valid run manifest: field "models.evaluated"`],
		results: (at, p) => [`${at(p.manifest)}: not a valid run manifest: field "models.evaluated"`]
	},
	{
		bundle: "a manifest moved into another run's folder",
		files: (f, p) => {
			const copy = new Map(f);
			copy.delete(p.manifest);
			return copy.set(p.manifest.replace('runs/run1/', 'runs/run9/'), f.get(p.manifest)!);
		},
		importer: (at, p) => [
			`${at(`runs/run9/${p.dir}/manifest.json`)}: the manifest names run "run1" / "${p.dir}" but sits in the folder of "run9"`,
			`${at(p.manifest)} is missing`
		],
		results: (at, p) => [
			`${at(`runs/run9/${p.dir}/manifest.json`)}: the manifest names run "run1" / "${p.dir}" but sits in the folder of "run9"`
		]
	},
	{
		bundle: 'a zip entry that climbs out with ..',
		zip: (f) => zipOf(new Map(f).set('runs/../../evil.sh', 'rm -rf ~\n')),
		importer: () => [
			'runs/../../evil.sh: points outside the bundle (..); such an archive is refused'
		],
		results: null
	},
	{
		bundle: 'zip entries with absolute paths',
		zip: (f) =>
			zipOf(
				new Map(f).set('/etc/cron.d/evil', '* * * * * root x\n').set('C:/Windows/evil.bat', 'x')
			),
		importer: () => [
			'/etc/cron.d/evil: is an absolute path',
			'C:/Windows/evil.bat: is an absolute path'
		],
		results: null
	},
	{
		bundle: 'a lock file: the run was still being written',
		zip: (f, p) => zipOf(new Map(f).set(`runs/run1/${p.dir}/.lock`, '{"pid": 1}\n')),
		importer: (at, p) => [`runs/run1/${p.dir}/.lock: a lock file of the command-line tool`],
		results: null
	},
	{
		bundle: 'a file outside the canonical layout',
		zip: (f, p) => zipOf(new Map(f).set(`eval_results/run1/${p.dir}/notes.txt`, '备注\n')),
		importer: (at, p) => [
			`eval_results/run1/${p.dir}/notes.txt: not a file of the canonical layout`
		],
		results: null
	},
	{
		bundle: 'a stage file that is not UTF-8',
		zip: (f, p) => {
			const bytes = strToU8(f.get(p.stage('DCG_results'))!);
			bytes[20] = 0xff;
			return zipOf(new Map<string, string | Uint8Array>(f).set(p.stage('DCG_results'), bytes));
		},
		importer: (at, p) => [`${at(p.stage('DCG_results'))}: not UTF-8 text`],
		results: null
	},
	{
		bundle: 'an archive larger than the limit (1 MB here; 512 MB by default)',
		limits: { maxTotalBytes: 1024 * 1024, maxEntryBytes: 1024 * 1024 },
		zip: (f, p) => {
			// Random bytes do not compress: the archive itself is over the limit.
			const noise = new Uint8Array(1536 * 1024);
			for (let i = 0; i < noise.length; i += 65536) {
				crypto.getRandomValues(noise.subarray(i, i + 65536));
			}
			const big = new Map<string, string | Uint8Array>(f);
			return zipOf(big.set(`eval_results/run1/${p.dir}/attachment.bin`, noise));
		},
		importer: () => ['the archive is 1.5 MB, more than the 1 MB allowed.'],
		results: null
	},
	{
		bundle: 'a zip bomb: an entry of zeros that unpacks 1000-fold, past the 100 MB a file',
		zip: (f, p) => bombZip(f, p.stage('LCA_results'), 101),
		importer: (at, p) => [
			`${p.stage('LCA_results')}: unpacks to 101 MB, more than the 100 MB allowed per file`,
			'zip bomb'
		],
		results: null
	},
	{
		bundle: 'a zip bomb that understates its size (inflated only up to what it declares)',
		zip: (f, p) => understate(bombZip(f, p.stage('LCA_results'), 8), p.stage('LCA_results'), 1024),
		// What it inflates to is zeros: damage, not a cut-off write to resume.
		importer: (at, p) => [
			`${at(p.stage('LCA_results'))}, line 1: holds zero bytes (NUL), not JSON text: the file is damaged`
		],
		results: null
	},
	{
		bundle: 'not a zip archive',
		zip: () => strToU8('runs/run1/manifest.json\n'),
		importer: () => ['not a readable zip archive'],
		results: null
	}
];

let tmp: string;
let files: Files;
let paths: Paths;
/** The run the store holds before each import: another run id of the same model. */
let stored: BundleRun[];

beforeAll(async () => {
	tmp = await mkdtemp(join(tmpdir(), 'lexpilot-bad-bundles-'));
	const dataset = makeDataset(3);
	const memory = new MemoryStore();
	await writeRuns(memory, dataset, [{ runId: 'run1' }]);
	files = memory.toFiles();
	const run: RunKey = { runId: 'run1', modelDir: await modelDirName('sim-model-a') };
	paths = {
		manifest: manifestPath(run),
		stage: (file) => stageFilePath(run, file),
		dir: run.modelDir,
		first: dataset.cases[0].case_number
	};
	const before = new MemoryStore();
	await writeRuns(before, dataset, [{ runId: 'stored', stages: ['gen', 'dcg'] }]);
	stored = (await readZipBundle(zipOf(before.toFiles()), 'stored.zip')).runs;
});

afterEach(closeTestStores);

afterAll(async () => {
	await rm(tmp, { recursive: true, force: true });
});

/** A fresh browser storage that already holds the `stored` run. */
async function storageWithARun(): Promise<IdbStore> {
	const store = await openTestStore();
	await importRuns(store, stored);
	return store;
}

/** Everything the store holds, as export would write it, and its record count. */
async function contents(store: IdbStore) {
	const out = new Map<string, string>();
	for (const { run } of await listStoredRuns(store)) {
		for (const [path, text] of await readRunFiles(store, run)) out.set(path, text);
	}
	return { files: out, records: await (await rawDbOf(store)).count('records') };
}

/** The importer of the Results page: validate the whole zip, then write it all at once. */
async function importZip(store: IdbStore, zip: Uint8Array, limits?: BundleLimits) {
	const bundle = await readZipBundle(zip, 'bundle.zip', limits);
	await importRuns(store, bundle.runs);
}

async function writeTree(root: string, tree: Files): Promise<void> {
	for (const [path, text] of tree) {
		await mkdir(dirname(join(root, path)), { recursive: true });
		await writeFile(join(root, path), text);
	}
}

async function treeBytes(root: string): Promise<Map<string, string>> {
	const out = new Map<string, string>();
	for (const e of await readdir(root, { recursive: true, withFileTypes: true })) {
		if (e.isFile()) {
			const path = join(e.parentPath, e.name);
			out.set(path, (await readFile(path)).toString('base64'));
		}
	}
	return out;
}

const results = (root: string) => runCliInProcess(['results', '--output-root', root]);

const importerAt: At = (path) => `bundle.zip: ${path}`;

describe('the intact bundle (control: the checks below can fail)', () => {
	it('imports next to the stored run, and scores with results', async () => {
		const store = await storageWithARun();
		const before = await contents(store);
		await importZip(store, zipOf(files));
		const after = await contents(store);
		expect(after.records).toBeGreaterThan(before.records);
		for (const [path, text] of files) expect(after.files.get(path)).toBe(text);

		const root = join(tmp, 'intact');
		await writeTree(root, files);
		const scored = await results(root);
		expect(scored.code, scored.stderr).toBe(0);
	});
});

describe('malformed bundles through the importer: refused, storage unchanged', () => {
	// `$bundle` would quote the title and cut it at 40 characters (FAULTS.md names this family).
	it.each(ROWS.map((row) => [row.bundle, row] as const))(
		'%s → import refused',
		{ timeout: 30_000 },
		async (_title, row) => {
			const store = await storageWithARun();
			const before = await contents(store);
			const zip = row.zip ? row.zip(files, paths) : zipOf(row.files!(files, paths));
			const error = await importZip(store, zip, row.limits).then(
				() => null,
				(e: unknown) => e
			);
			expect(error).toBeInstanceOf(BundleError);
			const message = (error as Error).message;
			expect(message).toMatch(/^bundle\.zip cannot be imported \(\d+ problems?\):\n- /);
			for (const text of row.importer(importerAt, paths)) expect(message).toContain(text);
			expect(await contents(store)).toEqual(before);
		}
	);

	it('inflates an entry that understates its size only up to the size it declares', async () => {
		const path = paths.stage('LCA_results');
		const zip = understate(bombZip(files, path, 8), path, 1024);
		const entries = await unzipBundle(zip, 'bundle.zip');
		expect(entries.find((e) => e.path === path)!.bytes.length).toBe(1024);
	});
});

describe('the same damage as a folder on disk, through results: exit 2, files untouched', () => {
	const rows = ROWS.filter((row) => row.results !== null);

	it.each(rows.map((row) => [row.bundle, row] as const))(
		'%s → results exits 2',
		async (_title, row) => {
			const root = join(tmp, row.bundle.replace(/[^A-Za-z0-9]+/g, '-'));
			await writeTree(root, row.files!(files, paths));
			const before = await treeBytes(root);
			const result = await results(root);
			expect(result.code, result.stderr).toBe(2);
			expect(result.stdout).toBe('');
			for (const text of row.results!((path) => `${root}/${path}`, paths)) {
				expect(result.stderr).toContain(text);
			}
			expect(await treeBytes(root)).toEqual(before);
		}
	);
});

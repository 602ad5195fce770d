import { strToU8, zipSync } from 'fflate';
import { beforeAll, describe, expect, it } from 'vitest';
import { rejectionOf } from '../../../tests/support/thrown';
import { makeDataset } from '../../../tests/fixtures/engine/cases';
import { writeRuns } from '../../../tests/fixtures/bundles/runs';
import {
	callLogPath,
	manifestPath,
	modelDirName,
	stageFilePath,
	type RunKey
} from '../core/layout';
import { MemoryStore } from '../core/store/memory-store';
import {
	BundleError,
	readBundle,
	readZipBundle,
	unzipBundle,
	zipBundle,
	type Bundle,
	type BundleEntry
} from './zip-bundle';

let files: Map<string, string>;
let run: RunKey;

beforeAll(async () => {
	const store = new MemoryStore();
	await writeRuns(store, makeDataset(3), [{ runId: 'run1' }, { runId: 'run2', stages: ['gen'] }]);
	files = store.toFiles();
	run = { runId: 'run1', modelDir: await modelDirName('sim-model-a') };
});

const enc = (text: string) => strToU8(text);
const entriesOf = (map: Map<string, string>): BundleEntry[] =>
	[...map].map(([path, text]) => ({ path, bytes: enc(text) }));

/** The bundle's files as text again, the way export would write them. */
function filesOf(bundle: Bundle): Map<string, string> {
	const out = new Map<string, string>();
	for (const r of bundle.runs) {
		out.set(manifestPath(r.run), `${JSON.stringify(r.manifest, null, 2)}\n`);
		for (const [file, content] of Object.entries(r.files)) {
			out.set(stageFilePath(r.run, file as never), content!.lines.map((l) => `${l}\n`).join(''));
		}
		if (r.calls) out.set(callLogPath(r.run), r.calls.lines.map((l) => `${l}\n`).join(''));
	}
	return out;
}

/** The engine's files with one file replaced (or removed with null). */
function edited(path: string, text: string | null): BundleEntry[] {
	const copy = new Map(files);
	if (text === null) copy.delete(path);
	else copy.set(path, text);
	return entriesOf(copy);
}

async function problemsOf(promise: Promise<unknown>): Promise<string[]> {
	return (await rejectionOf(promise, BundleError)).problems;
}

describe('zip bundles', () => {
	it('round-trips the engine files: export → import gives byte-identical files', async () => {
		const zip = await zipBundle(files);
		const bundle = await readZipBundle(zip, 'runs.zip');
		expect(bundle.runs.map((r) => r.run.runId)).toEqual(['run1', 'run2']);
		expect(filesOf(bundle)).toEqual(files);
		// And a second export of the import is the same archive.
		expect(await zipBundle(filesOf(bundle))).toEqual(zip);
	});

	it('carries each run’s call log, line for line, validated', async () => {
		const bundle = await readZipBundle(await zipBundle(files), 'runs.zip');
		const [one, two] = bundle.runs;
		const text = files.get(callLogPath(run))!;
		expect(one.calls!.lines.map((l) => `${l}\n`).join('')).toBe(text);
		expect(one.calls!.entries).toHaveLength(text.split('\n').length - 1);
		expect(one.calls!.entries.every((e) => e.prompt.length > 0)).toBe(true);
		// run2 ran gen only: its log holds gen's calls alone.
		expect(new Set(two.calls!.entries.map((e) => e.stage))).toEqual(new Set(['gen']));
	});

	it('imports a bundle without call logs (older versions, other tools)', async () => {
		const without = new Map([...files].filter(([p]) => !p.endsWith('/calls.jsonl')));
		expect(without.size).toBe(files.size - 2);
		const bundle = await readZipBundle(await zipBundle(without), 'old.zip');
		expect(bundle.runs.map((r) => r.calls)).toEqual([undefined, undefined]);
		expect(filesOf(bundle)).toEqual(without);
	});

	it('keeps each run with its own files and counts every record', async () => {
		const bundle = await readZipBundle(await zipBundle(files), 'runs.zip');
		const [one, two] = bundle.runs;
		expect(Object.keys(one.files)).toEqual([
			'a1',
			'interaction',
			'force_ask',
			'a1_direct',
			'a1_force_judge',
			'LCA_results',
			'DCG_results',
			'LJP_direct',
			'LJP_gold',
			'LJP_interaction'
		]);
		expect(one.files.a1!.records).toHaveLength(6);
		expect(one.files.DCG_results!.records).toHaveLength(3);
		expect(Object.keys(two.files)).toEqual(['a1', 'interaction', 'LCA_results']);
	});

	it('accepts a folder zipped with its own top folder, as a CLI output root often is', async () => {
		const zip = zipSync(
			Object.fromEntries([...files].map(([p, t]) => [`lexpilot-out/${p}`, enc(t)]))
		);
		const bundle = await readZipBundle(zip, 'out.zip');
		expect(filesOf(bundle)).toEqual(files);
	});

	it('leaves out the CLI’s resume seals of a copied output root, and says so', async () => {
		const seals = `runs/${run.runId}/${run.modelDir}/.resume-seals.json`;
		const bundle = await readBundle(
			[...entriesOf(files), { path: `out/${seals}`, bytes: enc('{"version":1}') }].map((e) =>
				e.path.startsWith('out/') ? e : { ...e, path: `out/${e.path}` }
			),
			'out'
		);
		expect(filesOf(bundle)).toEqual(files);
		expect(bundle.ignored).toEqual([`out/${seals}`]);
		// Only beside a run's manifest: anywhere else it is no file of the layout.
		const stray = await problemsOf(
			readBundle([...entriesOf(files), { path: 'runs/.resume-seals.json', bytes: enc('{}') }], 'b')
		);
		expect(stray.join('\n')).toContain(
			'runs/.resume-seals.json: not a file of the canonical layout'
		);
	});

	it('skips folders and operating-system clutter, and says so', async () => {
		const bundle = await readBundle(
			[
				...entriesOf(files),
				{ path: 'runs/', bytes: new Uint8Array() },
				{ path: '__MACOSX/runs/._manifest.json', bytes: enc('x') },
				{ path: 'eval_results/.DS_Store', bytes: enc('x') }
			],
			'b.zip'
		);
		expect(bundle.ignored).toEqual([
			'runs/',
			'__MACOSX/runs/._manifest.json',
			'eval_results/.DS_Store'
		]);
	});
});

describe('refused bundles, each problem naming its file', () => {
	it.each([
		{
			name: 'a path that climbs out with ..',
			extra: 'runs/../../etc/passwd',
			problem: /runs\/\.\.\/\.\.\/etc\/passwd: points outside the bundle/
		},
		{
			name: 'an absolute path',
			extra: '/home/user/.ssh/id_rsa',
			problem: /\/home\/user\/\.ssh\/id_rsa: is an absolute path/
		},
		{
			name: 'a drive-letter path',
			extra: 'C:/Windows/win.ini',
			problem: /C:\/Windows\/win\.ini: is an absolute path/
		},
		{
			name: 'a file the layout does not know',
			extra: 'eval_results/run1/x/notes.txt',
			problem: /eval_results\/run1\/x\/notes\.txt: not a file of the canonical layout/
		},
		{
			name: 'a CLI lock file',
			extra: 'runs/run1/sim-model-a-00000000/.lock',
			problem: /\.lock: a lock file of the command-line tool/
		}
	])('$name', async ({ extra, problem }) => {
		const problems = await problemsOf(
			readBundle([...entriesOf(files), { path: extra, bytes: enc('{}') }], 'b.zip')
		);
		expect(problems).toEqual([expect.stringMatching(problem)]);
	});

	it('a run without its manifest', async () => {
		const problems = await problemsOf(readBundle(edited(manifestPath(run), null), 'b.zip'));
		expect(problems).toHaveLength(1);
		expect(problems[0]).toContain(
			`b.zip: ${manifestPath(run)} is missing, so the run's 10 stage files (${stageFilePath(run, 'a1')}, …) cannot be imported`
		);
	});

	it('a bad JSONL line, with file and line', async () => {
		const path = stageFilePath(run, 'DCG_results');
		const lines = files.get(path)!.split('\n');
		lines[1] = '{"case_number": "2024-民-002", ';
		const problems = await problemsOf(readBundle(edited(path, lines.join('\n')), 'b.zip'));
		expect(problems).toEqual([
			expect.stringMatching(/^b\.zip: eval_results\/.*DCG_results\.jsonl, line 2: not valid JSON/)
		]);
	});

	it('a malformed call-log line, with file and line', async () => {
		const path = callLogPath(run);
		const lines = files.get(path)!.split('\n');
		lines[2] = JSON.stringify({ ...JSON.parse(lines[2]), latency_ms: 'slow' });
		const problems = await problemsOf(readBundle(edited(path, lines.join('\n')), 'b.zip'));
		expect(problems).toEqual([
			expect.stringMatching(
				/^b\.zip: runs\/run1\/.*\/calls\.jsonl, line 3: not a call-log entry: field "latency_ms"/
			)
		]);
		const long = `${'x'.repeat(1_000_001)}\n`;
		expect(await problemsOf(readBundle(edited(path, long), 'b.zip'))).toEqual([
			expect.stringMatching(/calls\.jsonl, line 1: 1,000,001 characters, more than the 1,000,000/)
		]);
	});

	it('a call log without its run', async () => {
		const entries = [
			...entriesOf(files),
			{ path: 'runs/other/m-00000000/calls.jsonl', bytes: enc(files.get(callLogPath(run))!) }
		];
		expect(await problemsOf(readBundle(entries, 'b.zip'))).toEqual([
			expect.stringMatching(
				/runs\/other\/m-00000000\/calls\.jsonl: a call log without its run's manifest/
			)
		]);
	});

	it('a record of the wrong schema, naming the field', async () => {
		const path = stageFilePath(run, 'LCA_results');
		const lines = files.get(path)!.split('\n');
		lines[2] = JSON.stringify({ ...JSON.parse(lines[2]), label: 'maybe' });
		const problems = await problemsOf(readBundle(edited(path, lines.join('\n')), 'b.zip'));
		expect(problems).toEqual([
			expect.stringMatching(/LCA_results\.jsonl, line 3: field "label": /)
		]);
	});

	it('a manifest of the wrong schema', async () => {
		const manifest = JSON.parse(files.get(manifestPath(run))!);
		delete manifest.dataset.sha256;
		const problems = await problemsOf(
			readBundle(edited(manifestPath(run), JSON.stringify(manifest)), 'b.zip')
		);
		expect(problems).toEqual([
			expect.stringMatching(/manifest\.json: not a valid run manifest: field "dataset\.sha256"/)
		]);
	});

	it('a record of a case the manifest did not select', async () => {
		const path = stageFilePath(run, 'LJP_gold');
		const text = files.get(path)!.replace(/"2024-民-003"/, '"2024-民-999"');
		const problems = await problemsOf(readBundle(edited(path, text), 'b.zip'));
		expect(problems).toEqual([
			expect.stringMatching(
				/LJP_gold\.jsonl, line 3: case_number 2024-民-999 is not one of the run's 3 selected cases/
			)
		]);
	});

	it('a case saved twice', async () => {
		const path = stageFilePath(run, 'a1_direct');
		const [first] = files.get(path)!.split('\n');
		const problems = await problemsOf(
			readBundle(edited(path, `${files.get(path)}${first}\n`), 'b.zip')
		);
		expect(problems).toEqual([
			expect.stringMatching(
				/a1_direct\.jsonl, line 4: case_number 2024-民-001 already has a record on line 1/
			)
		]);
	});

	it('files of one run that disagree about a case', async () => {
		const path = stageFilePath(run, 'DCG_results');
		const text = files.get(path)!.replace('民间借贷纠纷', '劳动争议');
		const problems = await problemsOf(readBundle(edited(path, text), 'b.zip'));
		expect(problems[0]).toMatch(/has cause_of_action "劳动争议", but "民间借贷纠纷"/);
	});

	it('a manifest moved to another run folder', async () => {
		const text = files.get(manifestPath(run))!;
		const entries = edited(manifestPath(run), null);
		entries.push({ path: manifestPath({ ...run, runId: 'run9' }), bytes: enc(text) });
		const problems = await problemsOf(readBundle(entries, 'b.zip'));
		expect(problems.join('\n')).toMatch(
			/runs\/run9\/.*manifest\.json: the manifest names run "run1"/
		);
	});

	it('lists every problem at once', async () => {
		const problems = await problemsOf(
			readBundle(
				[
					...edited(manifestPath(run), null),
					{ path: '../evil', bytes: enc('') },
					{ path: 'README.md', bytes: enc('') }
				],
				'b.zip'
			)
		);
		expect(problems).toHaveLength(3);
	});

	it('an archive holding no run', async () => {
		const problems = await problemsOf(readZipBundle(zipSync({}), 'empty.zip'));
		expect(problems).toEqual([expect.stringMatching(/holds no run/)]);
	});

	it('something that is not a zip', async () => {
		const problems = await problemsOf(readZipBundle(enc('PK not really'), 'x.zip'));
		expect(problems).toEqual([expect.stringMatching(/not a readable zip archive/)]);
	});
});

describe('size limits', () => {
	const limits = { maxTotalBytes: 64 * 1024, maxEntryBytes: 16 * 1024 };
	/** Zeros compress about a thousandfold: a small archive that unpacks big. */
	const bomb = (sizes: number[]) =>
		zipSync(Object.fromEntries(sizes.map((s, i) => [`eval_results/r/m/f${i}`, new Uint8Array(s)])));

	it('refuses an entry that declares more than the per-file limit, before inflating', async () => {
		const zip = bomb([20 * 1024]);
		expect(zip.length).toBeLessThan(1024);
		const problems = await problemsOf(unzipBundle(zip, 'bomb.zip', limits));
		expect(problems).toEqual([
			expect.stringMatching(
				/^eval_results\/r\/m\/f0: unpacks to 20 KB, more than the 16 KB allowed per file.*zip bomb/
			)
		]);
	});

	it('refuses an archive whose entries together declare more than the total limit', async () => {
		const problems = await problemsOf(
			unzipBundle(bomb(Array(5).fill(15 * 1024)), 'bomb.zip', limits)
		);
		expect(problems).toEqual([expect.stringMatching(/the archive unpacks to .* more than/)]);
	});

	it('refuses a folder whose files are too large', async () => {
		const problems = await problemsOf(
			readBundle(
				[{ path: 'eval_results/r/m/big', bytes: new Uint8Array(17 * 1024) }],
				'dir',
				limits
			)
		);
		expect(problems).toEqual([expect.stringMatching(/more than the .* allowed per file/)]);
	});

	it('with the default limits, refuses a 600 MB zip bomb that is under 1 MB on disk', async () => {
		// Declared sizes are what is checked, so the bomb is built by hand rather than inflated.
		const zip = bomb([1024 * 1024]);
		const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
		// Patch the central directory's uncompressed size (offset 24 of its entry) to 600 MB.
		const cd = view.getUint32(zip.length - 22 + 16, true);
		view.setUint32(cd + 24, 600 * 1024 * 1024, true);
		const problems = await problemsOf(unzipBundle(zip, 'bomb.zip'));
		expect(problems.join('\n')).toMatch(/unpacks to 600 MB, more than the 100 MB allowed per file/);
		expect(problems.join('\n')).toMatch(
			/the archive unpacks to 600 MB, more than the 512 MB allowed/
		);
	});
});

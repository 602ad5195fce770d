/**
 * One manifest reader (`src/lib/core/store/manifest-file.ts`): the CLI's resume (FsStore),
 * `results` (the folder source) and the bundle importer accept exactly the same manifests and
 * refuse each bad one with the same words after the file's name.
 */
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fsLayoutSource } from '../../src/cli/fs-source';
import { FsStore } from '../../src/lib/adapters/fs-store';
import { readBundle } from '../../src/lib/adapters/zip-bundle';
import { manifestPath, modelDirName, type RunKey } from '../../src/lib/core/layout';
import { computeReport } from '../../src/lib/core/results/report';
import { makeManifest } from '../support/record-factories';
import { manifestText } from '../../src/lib/core/store/manifest-file';

const encode = (text: string) => new TextEncoder().encode(text);

interface Variant {
	name: string;
	/** Where the file sits. */
	at: RunKey;
	bytes: Uint8Array;
	/** null: every reader accepts it; else the words after `manifest.json: `. */
	refused: string | null;
}

let variants: Variant[];

beforeAll(async () => {
	const run = { runId: 'run1', modelDir: await modelDirName('gpt-x') };
	const good = makeManifest(run);
	const text = manifestText(good);
	const renamed = { runId: 'run1', modelDir: 'gpt-y-00000000' };
	variants = [
		{ name: 'a valid manifest', at: run, bytes: encode(text), refused: null },
		{ name: 'a valid manifest with a BOM', at: run, bytes: encode(`\uFEFF${text}`), refused: null },
		{
			name: 'extra fields (another tool wrote it)',
			at: run,
			bytes: encode(manifestText({ ...good, python_harness: { version: '1.2' } } as typeof good)),
			refused: null
		},
		{ name: 'cut-off JSON', at: run, bytes: encode(text.slice(0, 40)), refused: 'not valid JSON' },
		{
			name: 'a field missing',
			at: run,
			bytes: encode(text.replace(/\n {2}"code_sha256": "[0-9a-f]+",/, '')),
			refused: 'not a valid run manifest: field "code_sha256"'
		},
		{
			name: "a manifest in another run's folder",
			at: { ...run, runId: 'run9' },
			bytes: encode(text),
			refused: 'the manifest names run "run1"'
		},
		{
			name: 'a model folder renamed along with its manifest',
			at: renamed,
			bytes: encode(manifestText({ ...good, model_dir: renamed.modelDir })),
			refused: 'the folder of evaluated model "gpt-x" is'
		},
		{
			name: 'a selected case listed twice',
			at: run,
			bytes: encode(
				manifestText({
					...good,
					dataset: { ...good.dataset, selected_case_numbers: ['1', '2', '1'] }
				})
			),
			refused: 'dataset.selected_case_numbers lists case_number 1 twice'
		},
		{
			name: 'GBK bytes',
			at: run,
			bytes: new Uint8Array([...encode(text.slice(0, 30)), 0xc4, 0xe3, ...encode(text.slice(30))]),
			refused: 'not UTF-8 text'
		}
	];
});

let root: string;
beforeAll(async () => {
	root = await mkdtemp(join(tmpdir(), 'lexpilot-manifest-readers-'));
});
afterAll(() => rm(root, { recursive: true, force: true }));

/** What a reader says of a manifest: null when it accepts it, else its message. */
async function outcome(read: () => Promise<unknown>): Promise<string | null> {
	try {
		await read();
		return null;
	} catch (e) {
		return (e as Error).message;
	}
}

/** The words after the file's name, so readers that name the file differently compare. */
function afterFile(message: string | null): string | null {
	if (message === null) return null;
	const at = message.indexOf('manifest.json: ');
	return at === -1 ? message : message.slice(at + 'manifest.json: '.length);
}

describe('every manifest reader accepts and refuses the same manifests', () => {
	it.each([0, 1, 2, 3, 4, 5, 6, 7, 8])('variant %i', async (i) => {
		const v = variants[i];
		const folder = join(root, `v${i}`);
		const path = manifestPath(v.at);
		await mkdir(dirname(join(folder, path)), { recursive: true });
		await writeFile(join(folder, path), v.bytes);

		const resume = await outcome(() => new FsStore(folder).readManifest(v.at));
		const results = await outcome(async () => {
			const report = await computeReport(await fsLayoutSource(folder));
			expect(report.runs).toHaveLength(1);
		});
		const bundle = await outcome(async () => {
			const read = await readBundle([{ path, bytes: v.bytes }], 'b.zip');
			expect(read.runs).toHaveLength(1);
		});

		const said = [resume, results, bundle].map(afterFile);
		if (v.refused === null) {
			expect(said, v.name).toEqual([null, null, null]);
		} else {
			for (const words of said) expect(words, v.name).toContain(v.refused);
			// The bundle importer lists problems as sentences; the words are otherwise the same.
			expect(said[2]!.split('\n').pop()!.replace(/\.$/, '')).toBe(said[0]!.replace(/\.$/, ''));
			expect(said[1]).toBe(said[0]);
		}
	});
});

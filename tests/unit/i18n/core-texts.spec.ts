/**
 * The messages catalogue (`messages/core/`) is the one place a text of the core is added: each
 * message `core_<code>` is a code (`src/lib/core/said.ts`), with the parameters its English
 * names, said in both languages by the CLI and the page alike. `npm run i18n` writes the codes as
 * a type (`scripts/core-codes.js`) and stops when the Chinese lacks one.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { strToU8 } from 'fflate';
import { afterEach, describe, expect, it } from 'vitest';
import {
	BundleError,
	DEFAULT_BUNDLE_LIMITS,
	readBundle,
	readZipBundle,
	type BundleLimits
} from '../../../src/lib/adapters/zip-bundle';
import { manifestPath, modelDirName, stageFilePath } from '../../../src/lib/core/layout';
import { paramsOf, readCoreTexts } from '../../../src/lib/core/said';
import { MemoryStore } from '../../../src/lib/core/store/memory-store';
import { english } from '../../../src/lib/core/voice';
import { m } from '../../../src/lib/paraglide/messages';
import { overwriteGetLocale } from '../../../src/lib/paraglide/runtime';
import { coreText } from '../../../src/lib/view/core-text';
import { catalogueCodes, codesModule, untranslated } from '../../../scripts/core-codes.js';
import { writeRuns } from '../../fixtures/bundles/runs';
import { makeDataset } from '../../fixtures/engine/cases';

const ROOT = resolve(import.meta.dirname, '../../..');
const read = (locale: string) =>
	JSON.parse(readFileSync(join(ROOT, 'messages/core', `${locale}.json`), 'utf8')) as Record<
		string,
		unknown
	>;

describe('the core texts', () => {
	const en = read('en');
	const codes = catalogueCodes(en);

	it('are the catalogue’s messages, each with the parameters its English names', () => {
		expect(codes.length).toBeGreaterThan(400);
		// The core reads a message as the generator of its type does.
		for (const [code, names] of codes) expect(paramsOf(code), code).toEqual(names);
		expect(paramsOf('no_such_code')).toBeNull();
		expect(paramsOf('$schema')).toBeNull();
	});

	it('each has its Chinese message, with the same parameters', () => {
		expect(untranslated(en, read('zh-CN'), 'messages/core/zh-CN.json')).toEqual([]);
	});

	it('a Chinese message missing, or naming other parameters, stops npm run i18n', () => {
		const zh: Record<string, unknown> = {
			...read('zh-CN'),
			core_conn_ok: '{model}',
			core_extra: 'x'
		};
		delete zh.core_no_cases;
		expect(untranslated(en, zh, 'zh-CN.json')).toEqual([
			'zh-CN.json: no message core_no_cases',
			'zh-CN.json: core_conn_ok names {model}, English {model, ms, url}',
			'zh-CN.json: core_extra has no English message'
		]);
	});

	it('writes the codes as the type the core checks its calls against', () => {
		expect(codesModule({ $schema: 'x', core_a: 'at {b}, {c} \\{d\\}', core_e: 'e' })).toContain(
			"export interface CoreCatalogue {\n\ta: 'b' | 'c';\n\te: never;\n}\n"
		);
	});

	afterEach(() => overwriteGetLocale(() => 'en'));

	it.each(codes.filter(([code]) => code !== 'claim_verdict'))(
		'%s, added to the catalogue alone, is said by the CLI and the page as Paraglide says it',
		(code, names) => {
			const params = Object.fromEntries(names.map((name, i) => [name, `<${name} ${i}>`]));
			const said = readCoreTexts([{ code, params }]);
			expect(said, 'a code a store may keep').not.toBeNull();
			const compiled = (m as unknown as Record<string, (p: object, o: object) => string>)[
				`core_${code}`
			];
			expect(english(said!)).toBe(compiled(params, { locale: 'en' }));
			overwriteGetLocale(() => 'zh-CN');
			expect(coreText('English', said)).toBe(compiled(params, { locale: 'zh-CN' }));
		}
	);
});

describe('the bundle reader’s problems in Chinese', () => {
	afterEach(() => overwriteGetLocale(() => 'en'));

	it('a bad line, a foreign case and a run without its manifest: file and line kept', async () => {
		const store = new MemoryStore();
		await writeRuns(store, makeDataset(3), [{ runId: 'run1' }, { runId: 'run2', stages: ['gen'] }]);
		const files = store.toFiles();
		const run1 = { runId: 'run1', modelDir: await modelDirName('sim-model-a') };
		const run2 = { runId: 'run2', modelDir: await modelDirName('sim-model-a') };
		const a1 = stageFilePath(run1, 'a1');
		const dcg = stageFilePath(run1, 'DCG_results');
		const lines = files.get(dcg)!.split('\n');
		lines[1] = '';
		files.set(dcg, lines.join('\n'));
		const a1Lines = files.get(a1)!.split('\n');
		a1Lines[0] = JSON.stringify({ ...JSON.parse(a1Lines[0]), case_number: 'X-\u001b[31m' });
		files.set(a1, a1Lines.join('\n'));
		files.delete(manifestPath(run2));
		const entries = [...files].map(([path, text]) => ({ path, bytes: strToU8(text) }));
		const error = await readBundle(entries, 'b.zip').catch((e: unknown) => e);
		expect(error).toBeInstanceOf(BundleError);
		const { problems, problemsSaid } = error as BundleError;
		expect(problemsSaid.every((s) => s !== null)).toBe(true);
		overwriteGetLocale(() => 'zh-CN');
		const shown = problems.map((p, i) => coreText(p, problemsSaid[i]));
		expect(shown).toEqual(
			expect.arrayContaining([
				`缺少 b.zip: ${manifestPath(run2)}，因此该运行的 ${problems[0].match(/(\d+) stage file/)?.[1]} 个阶段文件（${stageFilePath(run2, 'a1')}${problems[0].includes(', …') ? ', …' : ''}）无法导入：运行只能连同清单一起导入。请把 runs/ 下的运行文件夹加入数据包。`,
				`b.zip: ${a1}，第 1 行：case_number X-\\u001b[31m 不在该运行选定的 3 个案例之中（清单中的 dataset.selected_case_numbers）；该文件属于另一个运行或数据集。`,
				`b.zip: ${dcg}，第 2 行：空行`
			])
		);
		expect(shown.join('\n')).not.toContain('\u001b');
	});
});

describe('the bundle reader’s refusals of a whole archive, in Chinese', () => {
	afterEach(() => overwriteGetLocale(() => 'en'));

	async function refused(entries: { path: string; bytes: Uint8Array }[], limits?: BundleLimits) {
		const error = await readBundle(entries, 'b.zip', limits).catch((e: unknown) => e);
		expect(error).toBeInstanceOf(BundleError);
		const { problems, problemsSaid } = error as BundleError;
		// Every problem has its code: none is left in English on a Chinese page.
		expect(problemsSaid.every((s) => s !== null)).toBe(true);
		overwriteGetLocale(() => 'zh-CN');
		return problems.map((p, i) => coreText(p, problemsSaid[i]));
	}

	it('an unsafe path, files too large, a case saved twice', async () => {
		const store = new MemoryStore();
		await writeRuns(store, makeDataset(2), [{ runId: 'run1', stages: ['gen'] }]);
		const files = store.toFiles();
		const run = { runId: 'run1', modelDir: await modelDirName('sim-model-a') };
		const entries = (map: Map<string, string>) =>
			[...map].map(([path, text]) => ({ path, bytes: strToU8(text) }));

		expect(
			await refused([...entries(files), { path: '../evil\u001b.json', bytes: strToU8('{}') }])
		).toEqual(['../evil\\u001b.json：指向数据包之外（..）；这样的压缩包整个被拒绝。']);
		overwriteGetLocale(() => 'en');

		const small = await refused(entries(files), {
			...DEFAULT_BUNDLE_LIMITS,
			maxEntryBytes: 100,
			maxTotalBytes: 200
		});
		expect(small.some((s) => /：[\d.]+ [KMk]?i?B，超过每个文件允许的 100 B。$/.test(s))).toBe(true);
		expect(small.at(-1)).toMatch(/^这些文件合计 .+，超过允许的 200 B。请一次导入较少的运行。$/);
		overwriteGetLocale(() => 'en');

		const a1 = stageFilePath(run, 'a1');
		const [first] = files.get(a1)!.split('\n');
		const twice = new Map(files).set(a1, `${first}\n${files.get(a1)}`);
		const shownTwice = await refused(entries(twice));
		expect(shownTwice).toContain(
			`b.zip: ${a1}，第 2 行：case_number ${JSON.parse(first).case_number}（完整历史）已在第 1 行有记录；一个案例只保存一次。`
		);
	});

	it('an archive that is no zip, or too large, in Chinese', async () => {
		const notZip = await readZipBundle(strToU8('hello'), 'x.zip').catch((e: unknown) => e);
		const big = await readZipBundle(new Uint8Array(300), 'y.zip', {
			...DEFAULT_BUNDLE_LIMITS,
			maxTotalBytes: 200
		}).catch((e: unknown) => e);
		overwriteGetLocale(() => 'zh-CN');
		for (const error of [notZip, big]) expect(error).toBeInstanceOf(BundleError);
		const say = (e: unknown) => {
			const { problems, problemsSaid } = e as BundleError;
			return problems.map((p, i) => coreText(p, problemsSaid[i]));
		};
		expect(say(notZip)).toEqual([
			expect.stringMatching(/^不是可读取的 zip 压缩包（.+）。请重新导出数据包。$/)
		]);
		expect(say(big)).toEqual(['压缩包大小为 300 B，超过允许的 200 B。']);
	});
});

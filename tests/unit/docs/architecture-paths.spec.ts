/**
 * ARCHITECTURE.md explains the design rather than listing folders, but every file or folder it
 * names must be there: a tour that points at a moved module sends a newcomer nowhere.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../../..');

/** A path the way the doc writes one: with a folder, or a file name with its extension. */
const PATH = /^(?:[\w.-]+\/)+(?:[\w.-]*|\{[\w,.-]+\}[\w.-]*)$|^[\w.-]+\.(?:md|ts|js|json)$/;

/**
 * The paths a markdown text names: code spans that look like one (a glob such as `*.spec.ts`
 * is not a path), paths in parentheses inside the picture, and the repository's own
 * documents (`PROTOCOL.md`, `docs/CLI.md`). `a/{b,c}.json` names both files.
 */
export function namedPaths(markdown: string): string[] {
	const picture = [...markdown.matchAll(/^```\n([\s\S]*?)^```$/gm)].map((m) => m[1]).join('\n');
	const prose = markdown.replace(/^```\n[\s\S]*?^```$/gm, '');
	const named = [
		...[...prose.matchAll(/`([^`\s]+)`/g)].map((m) => m[1]),
		...[...picture.matchAll(/\(([\w/.-]+\/[\w/., -]*)\)/g)].flatMap((m) => m[1].split(', ')),
		...[...prose.matchAll(/(?<![\w/`.-])((?:docs\/)?[A-Z]+\.md)\b/g)].map((m) => m[1])
	].filter((name) => PATH.test(name));
	const expanded = named.flatMap((name) => {
		const braces = /\{([^}]+)\}/.exec(name);
		return braces
			? braces[1].split(',').map((one) => name.replace(braces[0], one))
			: [name.replace(/\/$/, '')];
	});
	return [...new Set(expanded)];
}

/** Where a named path is: from the repository's root, or (`core/…`, `adapters/…`) in src/lib. */
const exists = (path: string) =>
	existsSync(join(ROOT, path)) || existsSync(join(ROOT, 'src/lib', path));

describe('namedPaths', () => {
	it.each<[string, string[]]>([
		[
			'see `core/said.ts`, `src/cli/` and `eslint.config.js`',
			['core/said.ts', 'src/cli', 'eslint.config.js']
		],
		['`messages/core/{en,zh-CN}.json`', ['messages/core/en.json', 'messages/core/zh-CN.json']],
		['a glob `*.worker.ts`, a flag `--output-root`, a name `openSession`', []],
		['PROTOCOL.md and docs/CLI.md, not Chart.js or SVG/PNG/HTML', ['PROTOCOL.md', 'docs/CLI.md']],
		[
			'```\nloadDataset (core/dataset)   (models x repetitions)   (core/engine, core/batch)\n```\n',
			['core/dataset', 'core/engine', 'core/batch']
		]
	])('reads %j', (text, paths) => {
		expect(namedPaths(text)).toEqual(paths);
	});
});

describe('ARCHITECTURE.md', () => {
	const paths = namedPaths(readFileSync(join(ROOT, 'ARCHITECTURE.md'), 'utf8'));

	it('names the parts it explains', () => {
		for (const part of ['core/session', 'core/protocol', 'core/store/types.ts'])
			expect(paths).toContain(part);
	});

	it('names only paths that exist', () => {
		expect(paths.filter((path) => !exists(path))).toEqual([]);
	});
});

/**
 * Run keys, run paths, run labels and endpoint identities are built by `src/lib/core/names.ts` and
 * `src/lib/core/layout.ts` only. This reads every source file of `src/` (specs aside: a test may
 * spell out the path it expects) and fails on one that builds them by hand, so a copy of a rule
 * cannot drift from the rule.
 *
 * `PENDING` lists the places still to convert, in files being edited elsewhere at the time the
 * check was added: each count must match exactly, so a new hand-built key fails, and so does a
 * converted one until its entry is removed.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../../..');
const SRC = join(ROOT, 'src');

/** The modules that may build these names. */
const OWNERS = new Set(['src/lib/core/names.ts', 'src/lib/core/layout.ts']);

/** What a name built by hand looks like, one line at a time. */
export const HAND_BUILT: { name: string; pattern: RegExp; use: string }[] = [
	{
		name: 'run key',
		// `${run.runId}/${run.modelDir}`, `${r.run_id}/${r.model_dir}`, `${runId}/${modelDir}`
		pattern: /\$\{[^}]*\b(?:runId|run_id)\}\/\$\{[^}]*\b(?:modelDir|model_dir)\}/,
		use: 'runKey / reportRunKey (core/names.ts)'
	},
	{
		name: 'run path',
		pattern: /`(?:runs|AwN_gen|Force_ask_gen|Force_judge_gen|eval_results)\/\$\{/,
		use: 'runFolder / runFilePath / manifestPath / stageFilePath (core/layout.ts)'
	},
	{
		name: 'endpoint identity',
		// A URL with its trailing slashes cut off, by hand.
		pattern: /(?:url|endpoint)[^\n]*\.replace\(\/\\\/\+\$\/, ''\)/i,
		use: 'endpointKey / sameEndpoint (core/names.ts)'
	},
	{
		name: 'run label',
		// `${runId} / ${model}`, `${escapeControl(row.runId)} ${escapeControl(row.model)}`: run first.
		pattern:
			/\$\{[^}]*\b(?:runId|run_id)\)?\}(?: \/ | · | {1,2})\$\{[^}]*\b(?:models?|modelDir|model_dir)\b/,
		use: 'runName / runLabel (core/layout.ts)'
	}
];

/** Hand-built names left in files others were editing: file → findings (a line may hold two). */
const PENDING: Record<string, number> = {};

function sources(dir: string): string[] {
	return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const path = join(dir, entry.name);
		if (entry.isDirectory()) return entry.name === 'paraglide' ? [] : sources(path);
		return /\.(ts|svelte)$/.test(entry.name) && !entry.name.endsWith('.spec.ts') ? [path] : [];
	});
}

/** Every line of `text` that builds a name by hand, as `line N: <name> (use …)`. */
export function handBuilt(text: string): string[] {
	return text
		.split('\n')
		.flatMap((line, i) =>
			HAND_BUILT.filter(({ pattern }) => pattern.test(line)).map(
				({ name, use }) => `line ${i + 1}: ${name} (use ${use}): ${line.trim()}`
			)
		);
}

describe('names built in one place', () => {
	it('finds no run key, run path, run label or endpoint identity built by hand in src/', () => {
		const found: Record<string, string[]> = {};
		for (const path of sources(SRC)) {
			const file = relative(ROOT, path).split('\\').join('/');
			if (OWNERS.has(file)) continue;
			const lines = handBuilt(readFileSync(path, 'utf8'));
			if (lines.length > 0) found[file] = lines;
		}
		const unexpected = Object.entries(found).filter(
			([file, lines]) => lines.length !== (PENDING[file] ?? 0)
		);
		const gone = Object.keys(PENDING).filter((file) => !(file in found));
		expect(unexpected.map(([file, lines]) => `${file}\n  ${lines.join('\n  ')}`)).toEqual([]);
		expect(gone, 'converted: remove these from PENDING').toEqual([]);
	});

	it.each([
		['`${run.runId}/${run.modelDir}`', 'run key'],
		['key: `${r.run_id}/${r.model_dir}`,', 'run key'],
		['return `runs/${dir}/.lock`;', 'run path'],
		['`eval_results/${key}/LCA_results.jsonl`', 'run path'],
		["const k = ep.baseURL.replace(/\\/+$/, '');", 'endpoint identity'],
		["const root = source.root.replace(/\\/+$/, '');", null],
		['return `run ${run.runId} / ${run.modelDir}`;', 'run label'],
		['`${escapeControl(row.runId)} ${escapeControl(row.model)}: ${row.status}`', 'run label'],
		['`${r.run.runId} · ${r.manifest.models.evaluated}`', 'run label'],
		['`lexpilot-${run.runId}-${run.modelDir}.zip`', null]
	])('reads %s as %s', (line, name) => {
		const found = handBuilt(line);
		if (name === null) expect(found).toEqual([]);
		else expect(found).toEqual([expect.stringContaining(`line 1: ${name} (use `)]);
	});
});

/**
 * The core and its adapters say what happened as codes (`src/lib/core/said.ts`); an error they
 * throw with an English sentence is shown in English on a Chinese page. This reads their sources
 * for errors made from a string or template literal: none may carry coded pieces beside its own
 * English (one voice, said once), and no file may throw more of them than the list below, which
 * only shrinks (an entry left larger than what its file throws fails too, so the list stays true).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../../..');
const DIRS = ['src/lib/core', 'src/lib/adapters'];

/** An error a person reads, made from a literal: `new UsageError(\`…` or `new CheckpointError('…`. */
const LITERAL_ERROR =
	/new (UsageError|CheckpointError|UpstreamIncompleteError|RunLockedError|BundleError|ModelCallError)\(\s*(\[\s*)?['"`]/g;

/** Files that still throw English sentences without codes, and how many; to be coded. */
const ENGLISH_STILL: Record<string, number> = {
	'src/lib/adapters/fs-store-file-state.ts': 1,
	'src/lib/adapters/fs-store-io.ts': 1,
	'src/lib/adapters/fs-store-lock-info.ts': 5,
	'src/lib/adapters/fs-store-lock.ts': 1,
	'src/lib/adapters/fs-store-write.ts': 1,
	'src/lib/core/agreement/run-reviews.ts': 1,
	'src/lib/core/engine/run-stages.ts': 1,
	'src/lib/core/engine/stages/shared.ts': 1,
	'src/lib/core/results/compare.ts': 1,
	'src/lib/core/simulated/simulated-client.ts': 1,
	'src/lib/core/store/key-free.ts': 1
};

function sources(dir: string): string[] {
	return readdirSync(dir).flatMap((name) => {
		const path = join(dir, name);
		if (statSync(path).isDirectory()) return sources(path);
		return /\.ts$/.test(name) && !/\.(spec|test)\.ts$/.test(name) ? [path] : [];
	});
}

/** Each literal error of `text`: its constructor call up to the closing parenthesis. */
function literalErrors(text: string): string[] {
	return [...text.matchAll(LITERAL_ERROR)].map((m) => {
		let depth = 0;
		for (let i = m.index + m[0].indexOf('('); i < text.length; i++) {
			if (text[i] === '(') depth++;
			else if (text[i] === ')' && --depth === 0) return text.slice(m.index, i + 1);
		}
		return text.slice(m.index);
	});
}

const found = Object.fromEntries(
	DIRS.flatMap((dir) => sources(join(ROOT, dir))).map((path) => [
		relative(ROOT, path),
		literalErrors(readFileSync(path, 'utf8'))
	])
);

describe('errors of the core in English', () => {
	it('reads the sources', () => {
		expect(Object.keys(found).length).toBeGreaterThan(100);
		expect(literalErrors('throw new UsageError(`run ${id}: no such run`);')).toHaveLength(1);
		expect(literalErrors("throw new UsageError([coded('opt_no_stage', {})]);")).toEqual([]);
	});

	it('none carries coded pieces beside its own English', () => {
		const beside = Object.entries(found).flatMap(([file, calls]) =>
			calls.filter((c) => /\bcoded\(|said\b/.test(c)).map((c) => `${file}: ${c}`)
		);
		expect(beside).toEqual([]);
	});

	it('no file throws more English than it did, and the list is kept true', () => {
		const counts = Object.fromEntries(
			Object.entries(found)
				.filter(([, calls]) => calls.length > 0)
				.map(([file, calls]) => [file, calls.length])
		);
		expect(counts, 'throw a coded text (`coded()` in src/lib/core/said.ts) instead').toEqual(
			ENGLISH_STILL
		);
	});
});

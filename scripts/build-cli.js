#!/usr/bin/env node
// Bundles the CLI (`src/cli/bin.ts` and everything it imports, dependencies included) into one
// ES module, `dist/cli/lexpilot.mjs`, so `lexpilot` starts without compiling TypeScript or
// resolving hundreds of modules. Run by `npm ci`'s `prepare`, and by `bin/lexpilot.js` whenever
// the bundle is missing or older than a source file it was built from.
// Usage: node scripts/build-cli.js [--entry src/cli/bin.ts] [--outfile dist/cli/lexpilot.mjs]
// esbuild is imported only to build, so the launcher's staleness check stays cheap.
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

/** The package root (this file is in `scripts/`). */
export const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** @default 'src/cli/bin.ts' */
export const DEFAULT_ENTRY = 'src/cli/bin.ts';
/** @default 'dist/cli/lexpilot.mjs' */
export const DEFAULT_OUTFILE = 'dist/cli/lexpilot.mjs';

/** The file listing a bundle's own source files (relative to the root), next to the bundle. */
/** @param {string} outfile */
export function metaPathOf(outfile) {
	return outfile.replace(/\.m?js$/, '') + '.inputs.json';
}

/**
 * True when the bundle `outfile` (relative to `root`) is missing, or one of the source files it
 * was built from is newer than it, removed or renamed: then it must be built again.
 * @param {{ root?: string, outfile?: string }} [options]
 */
export function isStale({ root = ROOT, outfile = DEFAULT_OUTFILE } = {}) {
	const out = resolve(root, outfile);
	let built;
	let inputs;
	try {
		built = statSync(out).mtimeMs;
		inputs = JSON.parse(readFileSync(metaPathOf(out), 'utf8')).inputs;
	} catch {
		return true;
	}
	if (!Array.isArray(inputs) || inputs.length === 0) return true;
	for (const input of inputs) {
		try {
			if (statSync(resolve(root, String(input))).mtimeMs > built) return true;
		} catch {
			return true;
		}
	}
	return false;
}

/** Writes `bytes` to `path` through a temporary file, so a reader never sees half a file. */
/**
 * @param {string} path
 * @param {Uint8Array | string} bytes
 */
function writeAtomic(path, bytes) {
	const tmp = `${path}.tmp-${process.pid}-${Date.now()}`;
	writeFileSync(tmp, bytes);
	renameSync(tmp, path);
}

/**
 * Bundles `entry` into `outfile` (both relative to `root`) and records the source files it was
 * built from (dependencies under node_modules left out: they change only through `npm ci`,
 * which rebuilds). Concurrent builds are safe: each file is replaced whole.
 * @param {{ root?: string, entry?: string, outfile?: string }} [options]
 * @returns {Promise<{ outfile: string, inputs: string[] }>}
 */
export async function buildCli({
	root = ROOT,
	entry = DEFAULT_ENTRY,
	outfile = DEFAULT_OUTFILE
} = {}) {
	const { build } = await import('esbuild');
	const out = resolve(root, outfile);
	const result = await build({
		absWorkingDir: root,
		entryPoints: [entry],
		outfile: out,
		bundle: true,
		platform: 'node',
		format: 'esm',
		target: 'node20',
		metafile: true,
		write: false,
		logLevel: 'silent',
		legalComments: 'none',
		// Bundled CommonJS dependencies may call require(); give them Node's.
		banner: {
			js: "import { createRequire as __lexpilotRequire } from 'node:module';\nconst require = __lexpilotRequire(import.meta.url);"
		}
	});
	const inputs = Object.keys(result.metafile.inputs)
		.filter((path) => !path.split(/[\\/]/).includes('node_modules'))
		.map((path) => relative(root, resolve(root, path)))
		.sort();
	mkdirSync(dirname(out), { recursive: true });
	for (const file of result.outputFiles) writeAtomic(file.path, file.contents);
	writeAtomic(
		metaPathOf(out),
		`${JSON.stringify({ entry, inputs: [...inputs, 'package.json'] }, null, 1)}\n`
	);
	return { outfile: out, inputs };
}

if (process.argv[1] && pathToFileURL(resolve(process.argv[1])).href === import.meta.url) {
	const { values } = parseArgs({
		options: { entry: { type: 'string' }, outfile: { type: 'string' } },
		strict: true
	});
	const started = Date.now();
	try {
		const { outfile, inputs } = await buildCli({ entry: values.entry, outfile: values.outfile });
		console.log(
			`lexpilot CLI: bundled ${inputs.length} source files into ${relative(ROOT, outfile) || outfile} in ${Date.now() - started} ms`
		);
	} catch (e) {
		console.error(`lexpilot CLI: build failed: ${e instanceof Error ? e.message : String(e)}`);
		process.exitCode = 1;
	}
}

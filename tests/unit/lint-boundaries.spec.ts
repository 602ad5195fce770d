/**
 * The layer rules of eslint.config.js (ARCHITECTURE.md, "may import") keep working: small
 * in-memory files placed in each folder, linted with the project's own config, are reported for
 * each forbidden import (static or dynamic) or global, and not for an allowed one.
 */
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BOUNDARY_RULES = new Set([
	'no-restricted-imports',
	'no-restricted-syntax',
	'no-restricted-globals',
	'no-restricted-properties'
]);

let eslint: ESLint;

beforeAll(async () => {
	eslint = new ESLint({
		cwd: ROOT,
		// The files do not exist, so no type information: run the boundary rules only.
		overrideConfig: { languageOptions: { parserOptions: { projectService: false } } },
		ruleFilter: ({ ruleId }) => BOUNDARY_RULES.has(ruleId)
	});
	// Loading the config and the parsers takes seconds: once, here, not in the first test.
	await eslint.lintText(script(''), { filePath: `${ROOT}/src/lib/components/Warm.svelte` });
}, 60_000);

/** The boundary rules `code` breaks when it stands at `path`. */
async function broken(path: string, code: string): Promise<string[]> {
	const [result] = await eslint.lintText(code, { filePath: `${ROOT}/${path}` });
	expect(result.messages.filter((m) => m.fatal)).toEqual([]);
	return result.messages.map((m) => `${m.ruleId}: ${m.message}`);
}

const script = (code: string) => `<script lang="ts">\n${code}\n</script>\n`;

interface Case {
	/** Where the file stands (a .svelte file gets its code in a script). */
	path: string;
	code: string;
	/** Part of the message the rule gives. */
	reported: RegExp;
}

const FORBIDDEN: Case[] = [
	// core: no svelte, $app, node:*, DOM or Node globals, other layers, other packages.
	{ path: 'src/lib/core/probe.ts', code: "import { tick } from 'svelte';", reported: /Svelte/ },
	{
		path: 'src/lib/core/probe.ts',
		code: "import { flip } from 'svelte/animate';",
		reported: /Svelte/
	},
	{
		path: 'src/lib/core/engine/probe.ts',
		code: "import { goto } from '$app/navigation';",
		reported: /SvelteKit/
	},
	{
		path: 'src/lib/core/probe.ts',
		code: "import { readFile } from 'node:fs/promises';",
		reported: /Node API/
	},
	{ path: 'src/lib/core/probe.ts', code: "import path from 'path';", reported: /Node API/ },
	{
		path: 'src/lib/core/probe.ts',
		code: "export const fs = await import('node:fs');",
		reported: /Node API/
	},
	{
		path: 'src/lib/core/probe.ts',
		code: "import { openDB } from 'idb';",
		reported: /zod and openai/
	},
	{
		path: 'src/lib/core/probe.ts',
		code: 'export const w = window.innerWidth;',
		reported: /no DOM \(window\)/
	},
	{
		path: 'src/lib/core/probe.ts',
		code: "export const d = document.createElement('a');",
		reported: /no DOM \(document\)/
	},
	{
		path: 'src/lib/core/store/probe.ts',
		code: "export const v = localStorage.getItem('k');",
		reported: /no DOM \(localStorage\)/
	},
	{
		path: 'src/lib/core/probe.ts',
		code: "export const r = indexedDB.open('x');",
		reported: /no DOM \(indexedDB\)/
	},
	{
		path: 'src/lib/core/probe.ts',
		code: 'export const l = globalThis.navigator.language;',
		reported: /no DOM \(navigator\)/
	},
	{
		path: 'src/lib/core/probe.ts',
		code: 'export const env = process.env.HOME;',
		reported: /no Node global \(process\)/
	},
	{
		path: 'src/lib/core/probe.ts',
		code: "import { keyOf } from '$lib/state/results.svelte';",
		reported: /core imports core only/
	},
	{
		path: 'src/lib/core/results/probe.ts',
		code: "import { figureSvg } from '../../view/svg-chart';",
		reported: /core imports core only/
	},
	{
		path: 'src/lib/core/probe.ts',
		code: "import Pick from '$lib/components/Pick.svelte';",
		reported: /core imports core only/
	},
	{
		path: 'src/lib/core/probe.ts',
		code: "import type { IdbStore } from '$lib/adapters/idb-store';",
		reported: /core imports core only/
	},
	{
		path: 'src/lib/core/probe.ts',
		code: "export const s = await import('$lib/adapters/idb-store');",
		reported: /core imports core only/
	},
	{
		path: 'src/lib/core/probe.spec.ts',
		code: "import { keyOf } from '$lib/state/results.svelte';",
		reported: /core imports core only/
	},
	// state never imports components.
	{
		path: 'src/lib/state/probe.svelte.ts',
		code: "import Pick from '$lib/components/Pick.svelte';",
		reported: /state never imports components/
	},
	{
		path: 'src/lib/state/probe.ts',
		code: "import { x } from '../components/results/x';",
		reported: /state never imports components/
	},
	// components never import adapters, statically or not.
	{
		path: 'src/lib/components/results/Probe.svelte',
		code: script("\timport { downloadBlob } from '$lib/adapters/download';"),
		reported: /components never import adapters/
	},
	{
		path: 'src/lib/components/Probe.svelte',
		code: script("\tconst store = import('$lib/adapters/idb-store');"),
		reported: /components never import adapters/
	},
	{
		path: 'src/lib/components/probe.ts',
		code: "import type { IdbStore } from '../adapters/idb-store';",
		reported: /components never import adapters/
	},
	// view models: no state, components or adapters.
	{
		path: 'src/lib/view/probe.ts',
		code: "import { resultsState } from '$lib/state/results.svelte';",
		reported: /view models import core and view only/
	},
	{
		path: 'src/lib/view/probe.ts',
		code: "import Pick from '../components/Pick.svelte';",
		reported: /view models import core and view only/
	},
	{
		path: 'src/lib/view/probe.ts',
		code: "import { downloadBlob } from '$lib/adapters/download';",
		reported: /view models import core and view only/
	},
	{
		path: 'src/lib/view/probe.ts',
		code: "import { untrack } from 'svelte';",
		reported: /framework-free/
	},
	// adapters and the CLI.
	{
		path: 'src/lib/adapters/probe.ts',
		code: "import { keyOf } from '$lib/state/results.svelte';",
		reported: /adapters import core and platform/
	},
	{
		path: 'src/cli/commands/probe.ts',
		code: "import { figureSvg } from '../../lib/view/svg-chart';",
		reported: /the CLI builds on core and adapters only/
	}
];

const ALLOWED: Omit<Case, 'reported'>[] = [
	{
		path: 'src/lib/core/probe.ts',
		code: [
			"import { z } from 'zod';",
			"import OpenAI from 'openai';",
			"import { sha256Hex } from './hash';",
			"import { runLabel } from '$lib/core/store/checks';",
			'export const c = globalThis.crypto.subtle;',
			'export const t = new TextEncoder();',
			'export const all = [z, OpenAI, sha256Hex, runLabel];'
		].join('\n')
	},
	{
		path: 'src/lib/core/probe.spec.ts',
		code: "import { readFileSync } from 'node:fs';\nimport { it } from 'vitest';\nexport { readFileSync, it };"
	},
	{
		path: 'src/lib/state/probe.svelte.ts',
		code: "import { sharedIdbStore } from '$lib/adapters/idb-store';\nimport { tableOf } from '$lib/view/table-format';\nexport { sharedIdbStore, tableOf };"
	},
	{
		path: 'src/lib/components/results/Probe.svelte',
		code: script(
			"\timport { resultsState } from '$lib/state/results.svelte';\n\timport { tableOf } from '$lib/view/table-format';\n\timport Pick from '../Pick.svelte';\n\tconst chart = import('./chart-setup');\n\tvoid [resultsState, tableOf, Pick, chart];"
		)
	},
	{
		path: 'src/lib/view/probe.ts',
		code: "import { runLabel } from '$lib/core/store/checks';\nimport { tableOf } from './table-format';\nexport { runLabel, tableOf };"
	},
	{
		path: 'src/lib/adapters/probe.ts',
		code: "import { openDB } from 'idb';\nimport { readFile } from 'node:fs/promises';\nimport { runLabel } from '../core/store/checks';\nexport { openDB, readFile, runLabel };"
	},
	{
		path: 'src/cli/commands/probe.ts',
		code: "import { FsStore } from '../../lib/adapters/fs-store';\nimport { join } from 'node:path';\nexport { FsStore, join };"
	},
	{
		path: 'src/routes/probe/+page.svelte',
		code: script(
			"\timport { downloadBlob } from '$lib/adapters/download';\n\timport Pick from '$lib/components/Pick.svelte';\n\tvoid [downloadBlob, Pick];"
		)
	}
];

describe('the layer rules of eslint.config.js', () => {
	it.each(FORBIDDEN)('reports in $path: $code', async ({ path, code, reported }) => {
		const messages = await broken(path, code);
		expect(messages.length, messages.join('\n')).toBeGreaterThan(0);
		expect(
			messages.every((m) => reported.test(m)),
			messages.join('\n')
		).toBe(true);
	});

	it.each(ALLOWED)('allows in $path: $code', async ({ path, code }) => {
		expect(await broken(path, code)).toEqual([]);
	});
});

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

/** Per file: what it may not import or use, and part of the message the rule gives. */
const FORBIDDEN: Record<string, [code: string, reported: RegExp][]> = {
	// core: no svelte, $app, node:*, DOM or Node globals, other layers, other packages.
	'src/lib/core/probe.ts': [
		["import { tick } from 'svelte';", /Svelte/],
		["import { flip } from 'svelte/animate';", /Svelte/],
		["import { readFile } from 'node:fs/promises';", /Node API/],
		["import path from 'path';", /Node API/],
		["export const fs = await import('node:fs');", /Node API/],
		["import { openDB } from 'idb';", /zod and openai/],
		['export const w = window.innerWidth;', /no DOM \(window\)/],
		["export const d = document.createElement('a');", /no DOM \(document\)/],
		["export const r = indexedDB.open('x');", /no DOM \(indexedDB\)/],
		['export const l = globalThis.navigator.language;', /no DOM \(navigator\)/],
		['export const env = process.env.HOME;', /no Node global \(process\)/],
		["import { keyOf } from '$lib/state/results.svelte';", /core imports core only/],
		["import Pick from '$lib/components/Pick.svelte';", /core imports core only/],
		["import type { IdbStore } from '$lib/adapters/idb-store';", /core imports core only/],
		["export const s = await import('$lib/adapters/idb-store');", /core imports core only/],
		["import zh from '../../../messages/core/zh-CN.json';", /English catalogue/],
		["import run from '../../../messages/run/en.json';", /English catalogue/],
		["export const e = await import('../../../messages/en.json');", /English catalogue/],
		["import { m } from '$lib/paraglide/messages';", /core imports core only/]
	],
	'src/lib/core/engine/probe.ts': [["import { goto } from '$app/navigation';", /SvelteKit/]],
	'src/lib/core/store/probe.ts': [
		["export const v = localStorage.getItem('k');", /no DOM \(localStorage\)/]
	],
	'src/lib/core/results/probe.ts': [
		["import { figureSvg } from '../../view/svg-chart';", /core imports core only/]
	],
	'src/lib/core/probe.spec.ts': [
		["import { keyOf } from '$lib/state/results.svelte';", /core imports core only/]
	],
	// state never imports components.
	'src/lib/state/probe.svelte.ts': [
		["import Pick from '$lib/components/Pick.svelte';", /state never imports components/]
	],
	'src/lib/state/probe.ts': [
		["import { x } from '../components/results/x';", /state never imports components/]
	],
	// components never import adapters, statically or not.
	'src/lib/components/results/Probe.svelte': [
		[
			script("\timport { downloadBlob } from '$lib/adapters/download';"),
			/components never import adapters/
		]
	],
	'src/lib/components/Probe.svelte': [
		[
			script("\tconst store = import('$lib/adapters/idb-store');"),
			/components never import adapters/
		]
	],
	'src/lib/components/probe.ts': [
		["import type { IdbStore } from '../adapters/idb-store';", /components never import adapters/]
	],
	// view models: no state, components, adapters or Svelte.
	'src/lib/view/probe.ts': [
		[
			"import { resultsState } from '$lib/state/results.svelte';",
			/view models import core and view only/
		],
		["import Pick from '../components/Pick.svelte';", /view models import core and view only/],
		[
			"import { downloadBlob } from '$lib/adapters/download';",
			/view models import core and view only/
		],
		["import { untrack } from 'svelte';", /framework-free/]
	],
	// adapters and the CLI.
	'src/lib/adapters/probe.ts': [
		["import { keyOf } from '$lib/state/results.svelte';", /adapters import core and platform/]
	],
	'src/cli/commands/probe.ts': [
		[
			"import { figureSvg } from '../../lib/view/svg-chart';",
			/the CLI builds on core and adapters only/
		],
		// Work starts through the run session, never an engine configuration.
		["import { runAll } from '../../lib/core/engine';", /through the run session/],
		["import { runStages } from '../../lib/core/engine/run-stages';", /through the run session/],
		["import { runBatch } from '../../lib/core/batch/rounds';", /through the run session/]
	],
	'src/lib/adapters/workers/probe.ts': [
		["import { runAll } from '$lib/core/engine/run-all';", /through the run session/]
	],
	'src/lib/state/probe-run.ts': [
		["import { rejudgeRun } from '$lib/core/engine/rejudge/rejudge';", /through the run session/]
	],
	'src/routes/probe.ts': [
		["import { runAll } from '$lib/core/engine/run-all';", /through the run session/]
	],
	// Single modules' own rules, beside their folder's.
	// The run's controller (in the run worker) knows no page: the request builder builds on it.
	'src/lib/adapters/workers/run-controller.ts': [
		[
			"import type { RunRequest } from '$lib/state/run-request';",
			/adapters import core and platform/
		],
		["import { m } from '$lib/paraglide/messages';", /adapters import core and platform/]
	],
	// The run's control that pages render (snapshots, plans, batch views) is core.
	'src/lib/core/control/run-snapshot.ts': [
		[
			"import type { RunRequest } from '$lib/adapters/workers/run-controller';",
			/core imports core only/
		]
	],
	'src/lib/state/settings.svelte.ts': [
		["import { readStoredModelSettings } from './stored-settings';", /on demand/],
		["import * as z from 'zod/mini';", /on demand/]
	],
	'src/lib/state/model-settings.ts': [
		["import { z } from 'zod';", /on demand/],
		["import type { StoredSettings } from '$lib/state/stored-settings';", /on demand/]
	]
};

/** Per file: imports and globals its layer may use. */
const ALLOWED: { path: string; code: string }[] = [
	{
		path: 'src/cli/commands/probe-session.ts',
		code: [
			"import { openSession } from '../../lib/core/session';",
			"import type { RoundSender } from '../../lib/core/batch/rounds';",
			"import { RUN_ALL_STAGES } from '../../lib/core/engine';",
			'export const all = [openSession, RUN_ALL_STAGES];',
			'export type S = RoundSender;'
		].join('\n')
	},
	{
		path: 'src/lib/core/probe.ts',
		code: [
			"import { z } from 'zod';",
			"import OpenAI from 'openai';",
			"import { sha256Hex } from './hash';",
			"import { runLabel } from '$lib/core/store/checks';",
			"import en from '../../../messages/core/en.json';",
			'export const c = globalThis.crypto.subtle;',
			'export const t = new TextEncoder();',
			'export const all = [z, OpenAI, sha256Hex, runLabel, en];'
		].join('\n')
	},
	{
		path: 'src/lib/core/probe.spec.ts',
		code: "import { readFileSync } from 'node:fs';\nimport { it } from 'vitest';\nexport { readFileSync, it };"
	},
	{
		// The schema comes on demand; the controller is what a request builds on.
		path: 'src/lib/state/settings.svelte.ts',
		code: "export const stored = () => import('./stored-settings');"
	},
	{
		path: 'src/lib/state/run-request.ts',
		code: "import { RunController } from '$lib/adapters/workers/run-controller';\nimport * as z from 'zod';\nexport { RunController, z };"
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
	const forbidden = Object.entries(FORBIDDEN).flatMap(([path, rows]) =>
		rows.map(([code, reported]) => ({ path, code, reported }))
	);

	it.each(forbidden)('reports in $path: $code', async ({ path, code, reported }) => {
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

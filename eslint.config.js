import js from '@eslint/js';
import { builtinModules } from 'node:module';
import svelte from 'eslint-plugin-svelte';
import globals from 'globals';
import ts from 'typescript-eslint';
import svelteConfig from './svelte.config.js';

/**
 * The layers of src/ and the arrows between them (ARCHITECTURE.md, "may import"): each folder
 * gets one rule set of forbidden imports, static and dynamic, by `$lib/…` or by a relative path.
 * tests/unit/lint-boundaries.spec.ts checks that each forbidden import is reported.
 */

/** An import of `$lib/<folder>` or of a relative path through a folder of that name. */
const into = (...folders) => `(^\\$lib/|^\\.{1,2}/(.*/)?)(${folders.join('|')})(/|$)`;
const NODE = `^(node:|(${builtinModules.filter((m) => !m.startsWith('_')).join('|')})(/|$))`;
const SVELTE = '^(svelte(/|$)|\\$app/)';

const rule = (regex, message) => ({ regex, message });

const CORE_LAYERS = rule(
	into('state', 'components', 'view', 'adapters', 'paraglide', 'cli', 'routes'),
	'core imports core only: state, components, view, adapters and the CLI build on it.'
);
const CORE_SVELTE = rule(SVELTE, 'core knows nothing of Svelte or SvelteKit.');
const CORE_MESSAGES = rule(
	// The core says its texts in English from the catalogue itself (src/lib/core/voice.ts).
	'^\\.{1,2}/(.*/)?messages/(?!core/en\\.json$)',
	'core reads one file of the messages, its English catalogue messages/core/en.json.'
);
const CORE_NODE = rule(
	NODE,
	'core runs in the browser and in Node: a Node API belongs in adapters/ or cli/.'
);
const CORE_PACKAGES = rule(
	// Bare imports other than zod and openai (Node built-ins and Svelte have their own message).
	`^(?![.$]|zod(/|$)|openai(/|$)|node:|svelte(/|$)|(${builtinModules.join('|')})(/|$))`,
	'core imports zod and openai only (platform libraries belong in adapters/).'
);

/**
 * Work starts through the run session (`core/session`, `openSession`): the engine's
 * configurations are its internals, so an edge that imports one by name grows a runner beside it.
 */
const ONLY_SESSION = {
	regex: `(^\\$lib/|^\\.{1,2}/(.*/)?)core/(engine|engine/(run-all|run-stages|rejudge/rejudge)|batch/(rounds|pass))$`,
	importNames: ['runAll', 'runStages', 'rejudgeRun', 'runBatch', 'batchPass'],
	message:
		'start work through the run session (openSession in core/session), not an engine configuration.'
};

/** Globals core may not use: they exist in a browser page or in Node, not in both. */
const CORE_GLOBALS = [
	...[
		'window',
		'document',
		'self',
		'localStorage',
		'sessionStorage',
		'indexedDB',
		'IDBKeyRange',
		'navigator',
		'location',
		'history',
		'alert',
		'confirm',
		'prompt',
		'requestAnimationFrame',
		'cancelAnimationFrame',
		'ResizeObserver',
		'MutationObserver',
		'IntersectionObserver',
		'getComputedStyle',
		'customElements',
		'HTMLElement',
		'Element',
		'Image'
	].map((name) => ({
		name,
		message: `core runs in Node too: no DOM (${name}); pass what it needs in, or use an adapter.`
	})),
	...['process', 'Buffer', 'require', '__dirname', '__filename', 'global'].map((name) => ({
		name,
		message: `core runs in the browser too: no Node global (${name}); pass what it needs in.`
	}))
];

/** The same rules on `import('…')`: esquery regexes cannot hold a slash, so it is escaped. */
const dynamic = (patterns) =>
	patterns
		.filter((p) => !p.importNames)
		.map(({ regex, message }) => ({
			selector: `ImportExpression[source.value=/${regex.replaceAll('/', '\\x2F')}/]`,
			message
		}));

function boundary(files, patterns, { ignores = [], globals: restricted = [] } = {}) {
	return {
		files,
		ignores,
		rules: {
			'no-restricted-imports': ['error', { patterns }],
			'no-restricted-syntax': ['error', ...dynamic(patterns)],
			...(restricted.length
				? {
						'no-restricted-globals': ['error', ...restricted],
						'no-restricted-properties': [
							'error',
							...restricted.map(({ name, message }) => ({
								object: 'globalThis',
								property: name,
								message
							}))
						]
					}
				: {})
		}
	};
}

const SPECS = ['**/*.spec.ts'];

const STATE = [
	rule(
		into('components', 'routes', 'cli'),
		'state never imports components: components and pages build on state.'
	)
];

/**
 * What single state modules may not import statically (their dynamic imports are free):
 * tests/unit/lint-boundaries.spec.ts checks each is reported.
 */
const OWN_RULES = [
	{
		// Modules every page loads: the settings schema (zod) stays off each page's first load.
		files: ['src/lib/state/settings.svelte.ts', 'src/lib/state/model-settings.ts'],
		patterns: [
			rule(
				'^(\\./stored-settings|\\$lib/state/stored-settings|zod)(/|$)',
				"every page loads this module: import the settings schema on demand (`await import('./stored-settings')`)."
			)
		]
	}
];

/**
 * An edge's folder (`src/lib/state/**`, …): its layer rules everywhere, and outside its specs
 * (which make runs as fixtures) no engine configuration by name either.
 */
const edge = (folder, patterns) => [
	boundary([folder], [...patterns, ONLY_SESSION], { ignores: SPECS }),
	boundary([`${folder}/*.spec.ts`], patterns)
];

const boundaries = [
	boundary(
		['src/lib/core/**'],
		[CORE_LAYERS, CORE_SVELTE, CORE_NODE, CORE_PACKAGES, CORE_MESSAGES],
		{
			ignores: SPECS,
			globals: CORE_GLOBALS
		}
	),
	// Core's tests run in Node (files, fixtures, vitest) but still see core only of src/.
	boundary(['src/lib/core/**/*.spec.ts'], [CORE_LAYERS, CORE_SVELTE, CORE_MESSAGES]),
	// Adapters hold the run worker's engine too (`adapters/workers/`): work starts through the
	// session there as on every edge.
	...edge('src/lib/adapters/**', [
		rule(
			into('state', 'components', 'view', 'paraglide', 'cli', 'routes'),
			'adapters import core and platform libraries only.'
		),
		rule(SVELTE, 'adapters know nothing of Svelte or SvelteKit.')
	]),
	...edge('src/lib/view/**', [
		rule(
			into('state', 'components', 'adapters', 'cli', 'routes'),
			'view models import core and view only: state and components build on them.'
		),
		rule(SVELTE, 'view models are framework-free (they are tested in Node).')
	]),
	...edge('src/lib/state/**', STATE),
	// Rules of single modules, on top of their folder's (flat config: a rule set later replaces
	// the earlier one, so each repeats its folder's patterns).
	...OWN_RULES.map(({ files, patterns }) => ({
		files,
		rules: {
			'no-restricted-imports': ['error', { patterns: [...STATE, ONLY_SESSION, ...patterns] }]
		}
	})),
	...edge('src/lib/components/**', [
		rule(
			into('adapters', 'routes', 'cli'),
			'components never import adapters: call them through state (or take a function as a prop).'
		)
	]),
	...edge('src/routes/**', []),
	...edge('src/cli/**', [
		rule(
			into('state', 'components', 'view', 'paraglide', 'routes'),
			'the CLI builds on core and adapters only.'
		),
		rule(SVELTE, 'the CLI knows nothing of Svelte or SvelteKit.')
	])
];

export default ts.config(
	js.configs.recommended,
	...ts.configs.recommended,
	...svelte.configs.recommended,
	{
		languageOptions: { globals: { ...globals.browser, ...globals.node } }
	},
	{
		files: ['**/*.ts', '**/*.svelte', '**/*.svelte.ts'],
		languageOptions: {
			parserOptions: {
				// SvelteKit's tsconfig leaves the service worker out (it has the webworker lib).
				projectService: { allowDefaultProject: ['src/service-worker.ts'] },
				extraFileExtensions: ['.svelte'],
				parser: ts.parser,
				svelteConfig
			}
		},
		rules: {
			eqeqeq: ['error', 'always'],
			'@typescript-eslint/no-floating-promises': 'error',
			'@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }]
		}
	},
	...boundaries,
	{
		// A module over 400 lines is split by concern, or says why it is one file where it turns
		// the rule off (`eslint-disable max-lines -- one file: …`).
		files: ['src/**/*.ts', 'src/**/*.svelte', 'src/**/*.js'],
		ignores: ['src/**/*.spec.ts'],
		rules: { 'max-lines': ['error', { max: 400 }] }
	},
	{
		ignores: [
			'build/',
			'src/lib/paraglide/',
			'dist/',
			'.svelte-kit/',
			'node_modules/',
			'static/',
			'tests/fixtures/',
			'tmp/',
			'test-results/'
		]
	}
);

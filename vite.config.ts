import { paraglideVitePlugin } from '@inlang/paraglide-js';
import { sveltekit } from '@sveltejs/kit/vite';
import { defineConfig } from 'vitest/config';

export default defineConfig({
	plugins: [
		// Compiles messages/*.json into src/lib/paraglide (also run by `npm ci`'s prepare, so that
		// the type check sees it); the locale itself is chosen by state/locale.svelte.ts.
		paraglideVitePlugin({
			project: './project.inlang',
			outdir: './src/lib/paraglide',
			// The same structure `npm run i18n` writes: the plugin may take that output as its own
			// ("inputs unchanged"), and a mixed tree breaks the build.
			outputStructure: 'message-modules'
		}),
		sveltekit()
	],
	server: { host: '127.0.0.1' },
	// Module workers (`{ type: 'module' }`), each one file: the service worker caches what the
	// build lists, and chunks split off a worker are not listed, so an offline run would fail.
	worker: { format: 'es', rolldownOptions: { output: { codeSplitting: false } } },
	test: {
		reporters: ['default', './tests/support/summary-reporter.ts'],
		projects: [
			{
				extends: true,
				test: {
					name: 'unit',
					environment: 'node',
					// Files side by side, one worker per core: vitest's default leaves a core free, which
					// on a 2-core machine runs one file at a time. Unit files share no port (servers
					// listen on port 0) and no folder (each makes its own temporary one).
					maxWorkers: '100%',
					// A bound on a test that hangs, not a measure: two files at once on a busy 2-core
					// machine took tests that spawn the CLI past vitest's default 5 s.
					testTimeout: 30_000,
					// Tests that spawn the CLI run the bundle; build it once, first.
					globalSetup: ['./tests/support/build-cli.ts'],
					include: ['src/**/*.spec.ts', 'tests/unit/**/*.spec.ts', 'tests/bench/**/*.spec.ts']
				}
			},
			{
				extends: true,
				test: {
					name: 'e2e',
					environment: 'node',
					include: ['tests/e2e/**/*.e2e.ts'],
					testTimeout: 120_000,
					hookTimeout: 180_000,
					// expect.poll waits for a state to be reached, not for it to be quick: its 1 s default
					// made it a timing check that a loaded machine failed.
					expect: { poll: { timeout: 30_000 } },
					fileParallelism: false
				}
			}
		]
	}
});

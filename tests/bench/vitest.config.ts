/**
 * The bench's own unit tests (the helpers that define its figures), kept out of the unit
 * project because tests/bench/ is not part of the app: `npx vitest run --config tests/bench/vitest.config.ts`.
 */
import { resolve } from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
	root: resolve(import.meta.dirname, '../..'),
	test: { include: ['tests/bench/**/*.spec.ts'], environment: 'node' }
});

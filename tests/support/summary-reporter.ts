/**
 * Ends a vitest run with one plain line, `<project>: N passed, N failed[, N skipped]`, which any
 * CI log reader understands, beside vitest's own coloured summary, after the files that took
 * longest (tests and hooks, in seconds): where the suite's minutes go (issue 35 §6).
 */
import type { Reporter, TestModule } from 'vitest/node';

/** How many of the slowest files are listed. */
const SLOWEST = 10;

export default class SummaryReporter implements Reporter {
	onTestRunEnd(testModules: ReadonlyArray<TestModule>) {
		const counts = { passed: 0, failed: 0, skipped: 0 };
		const projects = new Set<string>();
		for (const module of testModules) {
			projects.add(module.project.name || 'tests');
			// A file that failed to load has no test results but is a failure all the same.
			if (module.state() === 'failed' && [...module.children.allTests()].length === 0) {
				counts.failed++;
			}
			for (const test of module.children.allTests()) {
				const state = test.result().state;
				if (state === 'passed') counts.passed++;
				else if (state === 'failed') counts.failed++;
				else counts.skipped++;
			}
		}
		const slowest = testModules
			.map((module) => ({ file: module.relativeModuleId, s: module.diagnostic().duration / 1000 }))
			.sort((a, b) => b.s - a.s)
			.slice(0, SLOWEST);
		if (slowest.length > 1) {
			process.stdout.write(`\nslowest files (s):\n`);
			for (const { file, s } of slowest) process.stdout.write(`  ${s.toFixed(1)}  ${file}\n`);
		}
		const label = [...projects].join('+') || 'tests';
		const skipped = counts.skipped ? `, ${counts.skipped} skipped` : '';
		process.stdout.write(
			`\n${label}: ${counts.passed} passed, ${counts.failed} failed${skipped}\n`
		);
	}
}

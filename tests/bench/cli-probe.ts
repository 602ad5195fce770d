/**
 * Runs a CLI entry point (`node --import tsx tests/bench/cli-probe.ts src/cli/bin.ts …`) and, as
 * the process exits, writes to `$LEXPILOT_BENCH_PROBE` what only the process itself can know:
 * when it sent its first HTTP request and how much CPU it had used by then (start-up), the CPU
 * at exit, and its peak resident memory. Bench-only instrumentation; the CLI knows nothing of it.
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/** What the probe writes, times as epoch milliseconds, CPU in microseconds. */
export interface ProbeReport {
	firstRequest: { at: number; cpuUs: number } | null;
	exit: { at: number; cpuUs: number };
	maxRssKiB: number;
}

const out = process.env.LEXPILOT_BENCH_PROBE;
if (!out) throw new Error('cli-probe: set LEXPILOT_BENCH_PROBE to the report file');
const cpu = () => {
	const { user, system } = process.cpuUsage();
	return user + system;
};
const epoch = () => performance.timeOrigin + performance.now();
let firstRequest: ProbeReport['firstRequest'] = null;
const realFetch = globalThis.fetch;
globalThis.fetch = (...args: Parameters<typeof fetch>) => {
	firstRequest ??= { at: epoch(), cpuUs: cpu() };
	return realFetch(...args);
};
process.on('exit', () => {
	const report: ProbeReport = {
		firstRequest,
		exit: { at: epoch(), cpuUs: cpu() },
		maxRssKiB: process.resourceUsage().maxRSS
	};
	writeFileSync(out, JSON.stringify(report));
});
const [entry] = process.argv.splice(2, 1);
await import(pathToFileURL(resolve(entry)).href);

/**
 * Loaded with `node --import ./tests/bench/cli-probe.js bin/lexpilot.js …` (the CLI as users run
 * it), it writes to `$LEXPILOT_BENCH_PROBE`, as the process exits, what only the process itself
 * can know: when it sent its first HTTP request (through `fetch` or `node:http`) and how much CPU it had used by then (start-up),
 * the CPU at exit, and its peak resident memory. Plain JavaScript, so no TypeScript loader runs
 * in the measured process. Bench-only instrumentation; the CLI knows nothing of it.
 *
 * The report: `{ firstRequest: { at, cpuUs } | null, mark: { at, cpuUs } | null, exit: { at,
 * cpuUs }, maxRssKiB }`, times as epoch milliseconds, CPU in microseconds (`ProbeReport` in
 * cli-run.bench.ts); `mark` is when request number `$LEXPILOT_BENCH_PROBE_MARK` (if set) started.
 */
import { subscribe } from 'node:diagnostics_channel';
import { writeFileSync } from 'node:fs';

const out = process.env.LEXPILOT_BENCH_PROBE;
if (!out) throw new Error('cli-probe: set LEXPILOT_BENCH_PROBE to the report file');
const cpu = () => {
	const { user, system } = process.cpuUsage();
	return user + system;
};
const epoch = () => performance.timeOrigin + performance.now();
const markAt = Number(process.env.LEXPILOT_BENCH_PROBE_MARK ?? 0);
/** @type {{ at: number, cpuUs: number } | null} */
let firstRequest = null;
/** @type {{ at: number, cpuUs: number } | null} */
let mark = null;
let requests = 0;
const started = () => {
	requests++;
	if (requests === 1) firstRequest = { at: epoch(), cpuUs: cpu() };
	if (requests === markAt) mark = { at: epoch(), cpuUs: cpu() };
};
const realFetch = globalThis.fetch;
/** @param {Parameters<typeof fetch>} args */
globalThis.fetch = (...args) => {
	started();
	return realFetch(...args);
};
// The CLI sends model calls over node:http (src/lib/adapters/node-fetch.ts), not fetch.
subscribe('http.client.request.start', started);
process.on('exit', () => {
	const report = {
		firstRequest,
		mark,
		exit: { at: epoch(), cpuUs: cpu() },
		maxRssKiB: process.resourceUsage().maxRSS
	};
	writeFileSync(out, JSON.stringify(report));
});

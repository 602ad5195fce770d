/**
 * Loaded with `node --import ./tests/bench/cli-probe.js bin/lexpilot.js …` (the CLI as users run
 * it), it writes to `$LEXPILOT_BENCH_PROBE`, as the process exits, what only the process itself
 * can know: when it sent its first HTTP request (through `fetch` or `node:http`) and how much CPU it had used by then (start-up),
 * the CPU at exit, and its peak resident memory. Plain JavaScript, so no TypeScript loader runs
 * in the measured process. Bench-only instrumentation; the CLI knows nothing of it.
 *
 * The report: `{ firstRequest: { at, cpuUs } | null, mark: { at, cpuUs } | null, exit: { at,
 * cpuUs }, maxRssKiB, runDelayMs }`, times as epoch milliseconds, CPU in microseconds
 * (`ProbeReport` in cli-run.bench.ts); `mark` is when request number `$LEXPILOT_BENCH_PROBE_MARK`
 * (if set) started; `peak` the largest resident memory seen (sampled every 100 ms) and V8's heap
 * then, in bytes; `runDelayMs` how long the process waited for a CPU (Linux's schedstat: the
 * machine's load, felt by this process), null where there is no /proc.
 */
import { subscribe } from 'node:diagnostics_channel';
import { readFileSync, writeFileSync } from 'node:fs';

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
/**
 * When the last response was read (its body ended): what follows is the run's own tail.
 * @type {{ at: number, cpuUs: number } | null}
 */
let lastResponse = null;
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
subscribe('http.client.response.finish', () => {
	lastResponse = { at: epoch(), cpuUs: cpu() };
});
/** Milliseconds the process waited on a run queue for a CPU (Linux), or null. */
const runDelayMs = () => {
	try {
		return Number(readFileSync('/proc/self/schedstat', 'utf8').split(' ')[1]) / 1e6;
	} catch {
		return null;
	}
};
// Where the peak of resident memory comes from: V8's heap, or memory outside it (buffers).
/** @type {{ at: number, rss: number, heapTotal: number, heapUsed: number, external: number } | null} */
let peak = null;
setInterval(() => {
	const { rss, heapTotal, heapUsed, external } = process.memoryUsage();
	if (!peak || rss > peak.rss) peak = { at: epoch(), rss, heapTotal, heapUsed, external };
}, 100).unref();
process.on('exit', () => {
	const report = {
		firstRequest,
		mark,
		lastResponse,
		exit: { at: epoch(), cpuUs: cpu() },
		maxRssKiB: process.resourceUsage().maxRSS,
		runDelayMs: runDelayMs(),
		peak
	};
	writeFileSync(out, JSON.stringify(report));
});

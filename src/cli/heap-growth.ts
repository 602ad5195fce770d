/**
 * How far V8 lets its heap grow past what survived the last full collection. Left to itself it
 * grows the old space up to four times the live objects when garbage comes fast, as it does with
 * 64 calls in flight: a run plan's live heap stays near 40–70 MiB while its heap grew to 180 MiB,
 * so the CLI's peak memory grew with the length of the plan, not with its records (PERFORMANCE.md,
 * "Run plan"). At twice the live heap full collections come more often, and the peak follows what
 * is kept. A `--heap-growing-percent` the user gives node (options or `NODE_OPTIONS`) is kept.
 */
import { setFlagsFromString } from 'node:v8';

export const HEAP_GROWING_PERCENT = 100;

const FLAG = /--heap[-_]growing[-_]percent/;

/** Sets V8's heap growing factor for this process, unless node was given one. */
export function limitHeapGrowth(
	execArgv: readonly string[],
	nodeOptions: string | undefined
): void {
	if (execArgv.some((a) => FLAG.test(a)) || FLAG.test(nodeOptions ?? '')) return;
	setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}

/** Timing helpers for bench modules. */

export interface MeasureOptions {
	/** Untimed runs first, so the JIT has settled. @default 3 */
	warmup?: number;
	/** Timed runs. @default 15 */
	iterations?: number;
}

/** Milliseconds of each timed run of `fn`, after warm-up. */
export async function timeRuns(
	fn: () => unknown,
	{ warmup = 3, iterations = 15 }: MeasureOptions = {}
): Promise<number[]> {
	for (let i = 0; i < warmup; i++) await fn();
	const times: number[] = [];
	for (let i = 0; i < iterations; i++) {
		const start = performance.now();
		await fn();
		times.push(performance.now() - start);
	}
	return times;
}

export function median(values: readonly number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	const mid = sorted.length >> 1;
	return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

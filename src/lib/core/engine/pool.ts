/**
 * Runs cases with bounded concurrency so one case's chain of calls advances while others wait
 * on the network. The first failure stops the pool: no new case starts, the cases in flight
 * finish (and are saved by their worker), then the first error is thrown.
 */
export async function runPool<T>(
	items: readonly T[],
	concurrency: number,
	worker: (item: T) => Promise<void>,
	signal?: AbortSignal
): Promise<void> {
	let next = 0;
	let failure: { error: unknown } | null = null;
	const lane = async () => {
		while (failure === null && !signal?.aborted && next < items.length) {
			const item = items[next++];
			try {
				await worker(item);
			} catch (error) {
				failure ??= { error };
			}
		}
	};
	const lanes = Math.max(1, Math.min(concurrency, items.length));
	await Promise.all(Array.from({ length: lanes }, lane));
	if (failure !== null) throw (failure as { error: unknown }).error;
}

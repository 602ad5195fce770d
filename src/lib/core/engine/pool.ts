/**
 * Runs cases with bounded concurrency so one case's chain of calls advances while others wait
 * on the network. The first failure stops the pool: no new case starts, the cases in flight
 * finish (and are saved by their worker), then the first error is thrown. With `room` (the
 * session's, `queuedRoom`), each case also waits for room to start: a paused session starts none.
 */
export async function runPool<T>(
	items: readonly T[],
	concurrency: number,
	worker: (item: T) => Promise<void>,
	signal?: AbortSignal,
	room?: { take(): Promise<boolean>; give(): void }
): Promise<void> {
	let next = 0;
	let failure: { error: unknown } | null = null;
	const going = () => failure === null && !signal?.aborted && next < items.length;
	const lane = async () => {
		while (going()) {
			if (room && !(await room.take())) break;
			if (!going()) {
				room?.give();
				break;
			}
			const item = items[next++];
			try {
				await worker(item);
			} catch (error) {
				failure ??= { error };
			} finally {
				room?.give();
			}
		}
	};
	const lanes = Math.max(1, Math.min(concurrency, items.length));
	await Promise.all(Array.from({ length: lanes }, lane));
	if (failure !== null) throw (failure as { error: unknown }).error;
}

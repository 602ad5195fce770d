/** For tests of the state modules: a Web Storage (`localStorage`) that lives in a Map. */

/** The part of `Storage` the state modules use, with the Map behind it for assertions. */
export interface MemoryStorage extends Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> {
	data: Map<string, string>;
}

/** An empty storage, or one holding `initial`'s entries. */
export function memoryStorage(initial: Record<string, string> = {}): MemoryStorage {
	const data = new Map(Object.entries(initial));
	return {
		data,
		getItem: (k) => data.get(k) ?? null,
		setItem: (k, v) => void data.set(k, v),
		removeItem: (k) => void data.delete(k)
	};
}

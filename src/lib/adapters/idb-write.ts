/**
 * The browser store's one way to write: a readwrite transaction that commits whole or not at
 * all, and a full disk turned into a `CheckpointError` saying so. Also how a stored file is
 * named in messages.
 */
import type { IDBPTransaction, StoreNames } from 'idb';
import { CheckpointError } from '../core/errors';
import { coded, type CoreText } from '../core/said';
import type { Db, WorkbenchDb } from './idb-schema';

/** What a stored file's label starts with in messages. */
export const LABEL_PREFIX = 'browser storage: ';

/** Names a stored file for messages; IndexedDB keeps the same files as the CLI's folders. */
export const storedLabel = (layoutPath: string): string => `${LABEL_PREFIX}${layoutPath}`;

function isQuotaError(e: unknown): boolean {
	return (e as { name?: string } | null)?.name === 'QuotaExceededError';
}

/**
 * Runs `body` in one readwrite transaction that commits whole or not at all (no await in it
 * on anything but the transaction's own requests, or it commits early). A full disk aborts it
 * and becomes a `CheckpointError` saying so (`full`, or that the record was not saved);
 * everything saved before stays.
 */
export async function writeTx<N extends StoreNames<WorkbenchDb>>(
	db: Db,
	stores: N | N[],
	label: string,
	body: (tx: IDBPTransaction<WorkbenchDb, N[], 'readwrite'>) => Promise<void>,
	full?: CoreText
): Promise<void> {
	const tx = db.transaction(Array.isArray(stores) ? stores : [stores], 'readwrite');
	try {
		await body(tx);
		await tx.done;
	} catch (e) {
		try {
			tx.abort();
		} catch {
			// already aborted or finished
		}
		await tx.done.catch(() => undefined);
		if (isQuotaError(e) || isQuotaError(tx.error)) {
			if (full) throw new CheckpointError([full]);
			const file = label.startsWith(LABEL_PREFIX) ? label.slice(LABEL_PREFIX.length) : null;
			throw new CheckpointError([
				file === null
					? coded('storage_full_at', { place: label })
					: coded('storage_full_record', { file })
			]);
		}
		throw e;
	}
}

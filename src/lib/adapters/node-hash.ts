/**
 * `node:crypto`'s SHA-256 for the core (`useSyncSha256`): synchronous, so the tens of thousands
 * of hashes of a resume do not queue on libuv's thread pool behind file syncs as WebCrypto
 * digests do. Strings are hashed as UTF-8, as `TextEncoder` encodes them (a lone surrogate
 * becomes U+FFFD in both).
 */
import { hash } from 'node:crypto';
import { useSyncSha256 } from '../core/hash';

/** One call, no `Hash` object per digest (Node 20.12 and later; the CLI needs 20.19). */
export function nodeSha256(data: Uint8Array | string): string {
	return hash('sha256', data, 'hex');
}

/** Makes every core hash of this process use `nodeSha256`. */
export function installNodeSha256(): void {
	useSyncSha256(nodeSha256);
}

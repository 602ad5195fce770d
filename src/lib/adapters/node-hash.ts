/**
 * `node:crypto`'s SHA-256 for the core (`useSyncSha256`): synchronous, so the tens of thousands
 * of hashes of a resume do not queue on libuv's thread pool behind file syncs as WebCrypto
 * digests do. Strings are hashed as UTF-8, as `TextEncoder` encodes them (a lone surrogate
 * becomes U+FFFD in both).
 */
import { createHash } from 'node:crypto';
import { useSyncSha256 } from '../core/hash';

export function nodeSha256(data: Uint8Array | string): string {
	const hash = createHash('sha256');
	if (typeof data === 'string') hash.update(data, 'utf8');
	else hash.update(data);
	return hash.digest('hex');
}

/** Makes every core hash of this process use `nodeSha256`. */
export function installNodeSha256(): void {
	useSyncSha256(nodeSha256);
}

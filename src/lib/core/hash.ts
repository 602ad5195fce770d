/**
 * SHA-256 through WebCrypto (`globalThis.crypto.subtle`), which browsers and Node 20 both
 * provide, so the browser and the CLI hash the very same bytes the same way.
 *
 * A platform with a faster synchronous SHA-256 may install it (`useSyncSha256`): the CLI installs
 * `node:crypto`'s, since in Node every WebCrypto digest is a job on libuv's four-thread pool,
 * queued behind file syncs, and a resume hashes tens of thousands of records. It must give the
 * same digest of the same UTF-8 bytes (a test checks it does, lone surrogates included).
 */

const encoder = new TextEncoder();

/** Lowercase hex SHA-256 of bytes, or of a string's UTF-8 encoding, computed synchronously. */
export type SyncSha256 = (data: Uint8Array | string) => string;

let syncSha256: SyncSha256 | null = null;

/** Installs (or, with null, removes) a synchronous SHA-256 used instead of WebCrypto. */
export function useSyncSha256(impl: SyncSha256 | null): void {
	syncSha256 = impl;
}

/** Lowercase hex SHA-256 of bytes, or of a string's UTF-8 encoding. */
export async function sha256Hex(data: Uint8Array | string): Promise<string> {
	if (syncSha256) return syncSha256(data);
	const bytes = typeof data === 'string' ? encoder.encode(data) : data;
	const digest = await globalThis.crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>);
	return toHex(new Uint8Array(digest));
}

function toHex(bytes: Uint8Array): string {
	let out = '';
	for (const b of bytes) out += b.toString(16).padStart(2, '0');
	return out;
}

/**
 * Canonical JSON: object keys sorted by code unit, no whitespace, arrays in order.
 * Used wherever a hash must not depend on key order (prompt packs, record inputs).
 */
export function canonicalJson(value: unknown): string {
	if (value === null || typeof value !== 'object') {
		if (typeof value === 'number' && !Number.isFinite(value)) {
			throw new TypeError(`canonicalJson: cannot encode ${value}`);
		}
		return JSON.stringify(value ?? null);
	}
	if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
	const entries = Object.entries(value as Record<string, unknown>)
		.filter(([, v]) => v !== undefined)
		.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
	return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

/** SHA-256 of a value's canonical JSON. */
export function sha256Canonical(value: unknown): Promise<string> {
	return sha256Hex(canonicalJson(value));
}

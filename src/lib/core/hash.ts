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
 *
 * Native `JSON.stringify` with a replacer that sorts each plain object's keys does the work
 * (about twice as fast as building the text in JS, and a resume hashes every saved record).
 * Where the two could differ it falls back to `canonicalJsonReference`: keys that look like
 * array indices (an object lists those in numeric order whatever their insertion order), values
 * with `toJSON` (a Date), functions and symbols. A property test checks the two agree.
 */
export function canonicalJson(value: unknown): string {
	try {
		return JSON.stringify(value, sortedKeys) ?? canonicalJsonReference(value);
	} catch (e) {
		if (e === FALL_BACK) return canonicalJsonReference(value);
		throw e;
	}
}

const FALL_BACK = Symbol('fall back');
const INDEX_LIKE = /^(?:0|[1-9]\d*)$/;

function sortedKeys(this: unknown, key: string, value: unknown): unknown {
	const original = (this as Record<string, unknown>)[key];
	if (original !== value || typeof value === 'function' || typeof value === 'symbol') {
		throw FALL_BACK;
	}
	if (value === null || typeof value !== 'object') {
		if (typeof value === 'number' && !Number.isFinite(value)) {
			throw new TypeError(`canonicalJson: cannot encode ${value}`);
		}
		return value;
	}
	if (Array.isArray(value)) return value;
	const keys = Object.keys(value);
	let inOrder = true;
	for (let i = 0; i < keys.length; i++) {
		if (INDEX_LIKE.test(keys[i])) throw FALL_BACK;
		if (i > 0 && keys[i - 1] > keys[i]) inOrder = false;
	}
	// An object whose keys are in order already (most messages of a history) is written as it is.
	if (inOrder) return value;
	keys.sort();
	// No prototype: a key "__proto__" (JSON.parse makes one) stays an own field, not a prototype.
	const sorted: Record<string, unknown> = Object.create(null);
	for (const k of keys) sorted[k] = (value as Record<string, unknown>)[k];
	return sorted;
}

/** The definition of canonical JSON, built up in JS; `canonicalJson` gives the same text faster. */
export function canonicalJsonReference(value: unknown): string {
	if (value === null || typeof value !== 'object') {
		if (typeof value === 'number' && !Number.isFinite(value)) {
			throw new TypeError(`canonicalJson: cannot encode ${value}`);
		}
		return JSON.stringify(value ?? null);
	}
	if (Array.isArray(value)) return `[${value.map(canonicalJsonReference).join(',')}]`;
	const entries = Object.entries(value as Record<string, unknown>)
		.filter(([, v]) => v !== undefined)
		.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
	return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJsonReference(v)}`).join(',')}}`;
}

/**
 * SHA-256 of a value's canonical JSON, at once, when a synchronous SHA-256 is installed
 * (`useSyncSha256`); null otherwise (then use `sha256Canonical`).
 */
export function sha256CanonicalSync(value: unknown): string | null {
	return syncSha256 ? syncSha256(canonicalJson(value)) : null;
}

/** SHA-256 of a value's canonical JSON. */
export function sha256Canonical(value: unknown): Promise<string> {
	return sha256Hex(canonicalJson(value));
}

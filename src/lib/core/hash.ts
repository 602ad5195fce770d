/**
 * SHA-256 through WebCrypto (`globalThis.crypto.subtle`), which browsers and Node 20 both
 * provide, so the browser and the CLI hash the very same bytes the same way.
 */

const encoder = new TextEncoder();

/** Lowercase hex SHA-256 of bytes, or of a string's UTF-8 encoding. */
export async function sha256Hex(data: Uint8Array | string): Promise<string> {
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

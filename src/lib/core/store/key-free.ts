/** Defence in depth: API keys are never written to a record, manifest, log or file. */
import { UsageError } from '../errors';

/**
 * Shorter strings are not treated as keys: no provider issues keys this short, and a test key
 * such as `sk` would otherwise match ordinary text and block every write.
 */
export const MIN_KEY_LENGTH = 8;

/**
 * Throws `UsageError` when any of `keys` occurs anywhere in `value`: in a string, inside a longer
 * string (a base URL with `?api-key=…`), or as an object key. The message names the path but
 * never repeats the key. Call it on a manifest or record before it is written.
 *
 * @param what names the thing about to be written, for the message (`the run manifest`).
 */
export function assertKeyFree(value: unknown, keys: Iterable<string>, what = 'the value'): void {
	const secrets = [...keys].filter((k) => typeof k === 'string' && k.length >= MIN_KEY_LENGTH);
	if (secrets.length === 0) return;
	const found = findKey(value, secrets, '', new WeakSet());
	if (found !== null) {
		throw new UsageError(
			`Refusing to write ${what}: ${found || 'it'} contains an API key. Keys are kept in memory ` +
				'only; take the key out of that field (for example out of a base URL) and try again.'
		);
	}
}

function findKey(
	value: unknown,
	secrets: string[],
	path: string,
	seen: WeakSet<object>
): string | null {
	if (typeof value === 'string') return secrets.some((s) => value.includes(s)) ? path : null;
	if (value === null || typeof value !== 'object' || seen.has(value)) return null;
	seen.add(value);
	for (const [k, v] of Object.entries(value)) {
		const at = Array.isArray(value) ? `${path}[${k}]` : path ? `${path}.${k}` : k;
		if (!Array.isArray(value) && secrets.some((s) => k.includes(s)))
			return `a field name under ${path || 'the top level'}`;
		const inner = findKey(v, secrets, at, seen);
		if (inner !== null) return inner;
	}
	return null;
}

/** Defence in depth: API keys are never written to a record, manifest, log or file. */
import { UsageError } from '../errors';
import { coded, type CoreText } from '../said';

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
 * @param what names the thing about to be written, for the message: a coded part
 * (`key_free_manifest`), or a name said as given in every language.
 * @default the value
 */
export function assertKeyFree(
	value: unknown,
	keys: Iterable<string>,
	what: CoreText | string = coded('key_free_value', {})
): void {
	const secrets = [...keys].filter((k) => typeof k === 'string' && k.length >= MIN_KEY_LENGTH);
	if (secrets.length === 0) return;
	const found = findKey(value, secrets, '', new WeakSet());
	if (found !== null) {
		const thing = typeof what === 'string' ? coded('key_free_named', { what }) : what;
		throw new UsageError([coded('key_free_refused', {}, { what: [thing], place: [found] })]);
	}
}

/** Where a key is, as a coded part: the path of its value, or the object whose field name holds it. */
function findKey(
	value: unknown,
	secrets: string[],
	path: string,
	seen: WeakSet<object>
): CoreText | null {
	if (typeof value === 'string') {
		if (!secrets.some((s) => value.includes(s))) return null;
		return path ? coded('key_free_at', { path }) : coded('key_free_it', {});
	}
	if (value === null || typeof value !== 'object' || seen.has(value)) return null;
	seen.add(value);
	for (const [k, v] of Object.entries(value)) {
		const at = Array.isArray(value) ? `${path}[${k}]` : path ? `${path}.${k}` : k;
		if (!Array.isArray(value) && secrets.some((s) => k.includes(s))) {
			return path ? coded('key_free_name_under', { path }) : coded('key_free_name_top', {});
		}
		const inner = findKey(v, secrets, at, seen);
		if (inner !== null) return inner;
	}
	return null;
}

/** Defence in depth: API keys are never written to a record, manifest, log or file. */
import { UsageError } from '../errors';
import { coded, type CoreText } from '../said';

/**
 * Shorter strings are not treated as keys: no provider issues keys this short, and a test key
 * such as `sk` would otherwise match ordinary text and block every write.
 */
export const MIN_KEY_LENGTH = 8;

/** What is about to be written: a coded part (`key_free_manifest`), or a name said as given. */
type Thing = CoreText | string;

/**
 * Throws `UsageError` when any of `keys` occurs anywhere in `value`: in a string, inside a longer
 * string (a base URL with `?api-key=…`), or as an object key. The message names the path but
 * never repeats the key. Call it on a manifest or record before it is written.
 *
 * @param what names the thing about to be written, for the message; a function is called only
 * when a key is found.
 * @default the value
 */
export function assertKeyFree(
	value: unknown,
	keys: Iterable<string>,
	what: Thing | (() => Thing) = coded('key_free_value', {})
): void {
	const secrets = [...keys].filter((k) => typeof k === 'string' && k.length >= MIN_KEY_LENGTH);
	if (secrets.length === 0) return;
	const found = findKey(value, secrets, [], new WeakSet());
	if (found !== null) {
		const named = typeof what === 'function' ? what() : what;
		const thing = typeof named === 'string' ? coded('key_free_named', { what: named }) : named;
		throw new UsageError([coded('key_free_refused', {}, { what: [thing], place: [found] })]);
	}
}

/** One step of the way to a value: a field name, or an index in an array. */
type Step = { key: string; index: false } | { key: number; index: true };

/** The path of `trail` as messages name it: `a.b[2].c`. Made only for the value found. */
function pathText(trail: readonly Step[]): string {
	let path = '';
	for (const step of trail) {
		path = step.index ? `${path}[${step.key}]` : path ? `${path}.${step.key}` : step.key;
	}
	return path;
}

/** Where a key is, as a coded part: the path of its value, or the object whose field name holds it. */
function findKey(
	value: unknown,
	secrets: string[],
	trail: Step[],
	seen: WeakSet<object>
): CoreText | null {
	if (typeof value === 'string') {
		if (!secrets.some((s) => value.includes(s))) return null;
		const path = pathText(trail);
		return path ? coded('key_free_at', { path }) : coded('key_free_it', {});
	}
	if (value === null || typeof value !== 'object' || seen.has(value)) return null;
	seen.add(value);
	if (Array.isArray(value)) {
		for (let i = 0; i < value.length; i++) {
			trail.push({ key: i, index: true });
			const inner = findKey(value[i], secrets, trail, seen);
			trail.pop();
			if (inner !== null) return inner;
		}
		return null;
	}
	for (const k of Object.keys(value)) {
		if (secrets.some((s) => k.includes(s))) {
			const path = pathText(trail);
			return path ? coded('key_free_name_under', { path }) : coded('key_free_name_top', {});
		}
		trail.push({ key: k, index: false });
		const inner = findKey((value as Record<string, unknown>)[k], secrets, trail, seen);
		trail.pop();
		if (inner !== null) return inner;
	}
	return null;
}

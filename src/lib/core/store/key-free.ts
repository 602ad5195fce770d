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
 * @param what names the thing about to be written, for the message (`the run manifest`); a
 *   function is called only when a key is found.
 */
export function assertKeyFree(
	value: unknown,
	keys: Iterable<string>,
	what: string | (() => string) = 'the value'
): void {
	const secrets = [...keys].filter((k) => typeof k === 'string' && k.length >= MIN_KEY_LENGTH);
	if (secrets.length === 0) return;
	const found = findKey(value, secrets, [], new WeakSet());
	if (found !== null) {
		const thing = typeof what === 'function' ? what() : what;
		throw new UsageError(
			`Refusing to write ${thing}: ${found || 'it'} contains an API key. Keys are kept in memory ` +
				'only; take the key out of that field (for example out of a base URL) and try again.'
		);
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

function findKey(
	value: unknown,
	secrets: string[],
	trail: Step[],
	seen: WeakSet<object>
): string | null {
	if (typeof value === 'string')
		return secrets.some((s) => value.includes(s)) ? pathText(trail) : null;
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
		if (secrets.some((s) => k.includes(s)))
			return `a field name under ${pathText(trail) || 'the top level'}`;
		trail.push({ key: k, index: false });
		const inner = findKey((value as Record<string, unknown>)[k], secrets, trail, seen);
		trail.pop();
		if (inner !== null) return inner;
	}
	return null;
}

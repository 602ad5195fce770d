/** Where a case holds a lone surrogate (text no UTF-8 file can carry), said as a code. */
import { JsonObject, type JsonValue } from './ordered-json';
import { escapeControl } from '../text/escape-control';
import { firstLoneSurrogate } from '../text/lone-surrogate';
import { coded, type CoreText } from '../said';
import { type Said } from './case-said';

/**
 * Says where the first lone surrogate of `text` is: `content holds a lone surrogate \ud800 at
 * offset 12 (after "…"): …`. Offsets count UTF-16 code units, as JavaScript and JSON do.
 */
export function loneSurrogate(text: string, kind: SurrogatePlace, path = ''): Said {
	const at = firstLoneSurrogate(text);
	const before = text.slice(Math.max(0, at - 20), at);
	// The text before it, when there is any, is said by a part of its own.
	const after = before ? [coded('surrogate_after', { before })] : [];
	return surrogateSaid(kind, path, { char: escapeControl(text[at]), offset: at }, { after });
}

/** What holds a lone surrogate: a field name, a message's content, a key or a value at `path`. */
export type SurrogatePlace = 'name' | 'content' | 'key' | 'value';

function surrogateSaid(
	kind: SurrogatePlace,
	path: string,
	place: { char: string; offset: number },
	parts: { after: CoreText[] }
): CoreText {
	if (kind === 'name') return coded('lone_surrogate_name', place, parts);
	if (kind === 'content') return coded('lone_surrogate_content', place, parts);
	if (kind === 'key') {
		return path
			? coded('lone_surrogate_key_at', { path, ...place }, parts)
			: coded('lone_surrogate_key', place, parts);
	}
	return path
		? coded('lone_surrogate_value_at', { path, ...place }, parts)
		: coded('lone_surrogate_value', place, parts);
}

/** A message for each string (object keys included) of `v` holding a lone surrogate. */
export function loneSurrogates(v: JsonValue, path: string): Said[] {
	if (typeof v === 'string') {
		return firstLoneSurrogate(v) >= 0 ? [loneSurrogate(v, 'value', path)] : [];
	}
	if (Array.isArray(v)) return v.flatMap((item, i) => loneSurrogates(item, `${path}[${i}]`));
	if (v instanceof JsonObject) {
		return v.keys.flatMap((k, i) => [
			...(firstLoneSurrogate(k) >= 0 ? [loneSurrogate(k, 'key', path)] : []),
			...loneSurrogates(v.values[i], `${path}[${JSON.stringify(escapeControl(k))}]`)
		]);
	}
	return [];
}

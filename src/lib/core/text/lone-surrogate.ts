/**
 * Lone surrogates: a high surrogate not followed by a low one, or a low one without a high one.
 * `escape-control.ts` escapes them; readers of datasets find the first one.
 */

/** A lone surrogate, as a regular expression source. */
export const LONE_SURROGATE =
	'[\\ud800-\\udbff](?![\\udc00-\\udfff])|(?<![\\ud800-\\udbff])[\\udc00-\\udfff]';

const LONE = new RegExp(LONE_SURROGATE);

/**
 * Index (UTF-16 code units) of the first lone surrogate of `text`, or -1. JSON can write one
 * (`"\ud800"`) although it is no character: such text cannot be sent as UTF-8, so providers
 * refuse it.
 */
export function firstLoneSurrogate(text: string): number {
	return text.search(LONE);
}

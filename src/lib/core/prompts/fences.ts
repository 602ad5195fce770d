/**
 * Fences of a template, and slot values made unable to open or close them (PROTOCOL.md §3: model
 * and dataset text placed into a prompt can never open or close the template's own fences or
 * markers).
 *
 * A template's fences are read from the template itself, so an edited or imported pack is covered
 * as well as the default one:
 * - every tag it writes, `<name>` or `</name>` (the default pack fences each slot so, and names
 *   fences in its instructions, as `user_standard` names `<案件事实>`);
 * - a code fence, when it writes a run of three or more backticks or tildes.
 *
 * In a slot value, a `<` that starts one of those tags — opening or closing, in any letter case,
 * with blanks around the `/` or after the name (`</ 律师提问 >`), or cut short before its `>` —
 * becomes the full-width `＜` (U+FF1C), and a run of three or more fence characters becomes
 * full-width `｀` / `～`. A value with none of them is inserted byte for byte as before, so
 * filled prompts, and the `input_sha256` hashing them, are unchanged for it. The turn markers
 * of a history are kept apart the same way in `turn-markers.ts`.
 */

/** What stands in for `<` where a value would start one of the template's tags. */
export const TAG_OPEN_LOOKALIKE = '\uFF1C';

const FENCE_LOOKALIKE: Record<string, string> = { '`': '\uFF40', '~': '\uFF5E' };

/** A tag the template writes: `<name>` or `</name>`; a name holds no blank, `<`, `>`, `/` or brace. */
const TEMPLATE_TAG = /<\s*\/?\s*([^\s<>/{}]{1,64})\s*>/g;

/** The names of the tags `template` writes, each once, in order of first appearance. */
export function fenceTagNames(template: string): string[] {
	return [...new Set([...template.matchAll(TEMPLATE_TAG)].map((m) => m[1]))];
}

/** The code-fence characters (backtick, tilde) that `template` writes three or more in a row. */
export function codeFenceChars(template: string): string[] {
	return Object.keys(FENCE_LOOKALIKE).filter((c) => template.includes(c.repeat(3)));
}

/** Makes `value` unable to open or close any fence of a template; the same function per template. */
export type Neutraliser = (value: string) => string;

const neutralisers = new Map<string, Neutraliser>();

/** The {@link Neutraliser} of `template`, built once per template text. */
export function neutraliserFor(template: string): Neutraliser {
	let neutralise = neutralisers.get(template);
	if (!neutralise) {
		neutralise = buildNeutraliser(fenceTagNames(template), codeFenceChars(template));
		// A pack edited on the Prompts page makes a new text per keystroke: keep the cache small.
		if (neutralisers.size >= 64) neutralisers.clear();
		neutralisers.set(template, neutralise);
	}
	return neutralise;
}

function buildNeutraliser(names: readonly string[], fenceChars: readonly string[]): Neutraliser {
	const steps: Neutraliser[] = [];
	if (names.length > 0) {
		// Longest first, so that of two names sharing a start the longer is tried first (the
		// look-ahead only decides where a `<` is replaced, so the order never changes the result,
		// but it keeps the pattern plain to read).
		const alternatives = [...names].sort((a, b) => b.length - a.length).map(escapeRegex);
		// A `<`, blanks, an optional `/`, blanks, then a name: the start of a tag whatever follows.
		// The look-ahead consumes nothing, so each `<` is looked at once: linear in the value.
		const tagStart = new RegExp(`<(?=\\s*\\/?\\s*(?:${alternatives.join('|')}))`, 'giu');
		steps.push((v) => v.replace(tagStart, TAG_OPEN_LOOKALIKE));
	}
	for (const c of fenceChars) {
		const run = new RegExp(`${escapeRegex(c)}{3,}`, 'g');
		steps.push((v) => v.replace(run, (m) => FENCE_LOOKALIKE[c].repeat(m.length)));
	}
	return (value) => steps.reduce((v, step) => step(v), value);
}

/** `text` matched literally inside a regular expression. */
export function escapeRegex(text: string): string {
	return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * A key can only travel in an HTTP header as visible ASCII. A key pasted with a zero-width
 * space, a non-breaking space or a typographic quote makes `fetch` throw before anything is
 * sent, which the SDK reports as "Connection error." — the user would then hunt for a server
 * problem. We name the real cause instead.
 */

/**
 * Why `key` cannot be sent as a bearer token, or null when it can (an empty key is fine).
 * Leading and trailing spaces, tabs and line ends are allowed: `fetch` strips them from header
 * values, so a key read from a file with its line end still works.
 */
export function keyProblem(key: string): string | null {
	return keyCharacter(key)?.text ?? null;
}

/** The character of `key` that cannot be sent, as {@link keyProblem} names it, or null. */
export function keyCharacter(key: string): { text: string; char: string; position: number } | null {
	const start = key.length - key.replace(/^[\t\n\r ]+/, '').length;
	const end = key.replace(/[\t\n\r ]+$/, '').length;
	for (let i = start; i < end; i++) {
		const code = key.charCodeAt(i);
		if (code < 0x21 || code > 0x7e) {
			const shown = `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
			return {
				text:
					`the API key has a character that cannot be sent in an HTTP header ` +
					`(${shown} at position ${i + 1}; often a space or an invisible character copied with ` +
					`the key). Paste the key again.`,
				char: shown,
				position: i + 1
			};
		}
	}
	return null;
}

/**
 * Message contents made unable to forge a turn of the history rendering (PROTOCOL.md §2,
 * §3): a line of a message's own that starts with `User:` or `Assistant:` stays its quoted text.
 */

/** What is put before a role word that would start a forged turn. */
export const TURN_LOOKALIKE = '\uFF1E';

/**
 * The line starts of the history rendering (PROTOCOL.md §2), `User: ` and `Assistant: `. A message
 * content that starts a line of its own with one of them (in any letter case, after blanks, with
 * an ASCII or a full-width colon) would read as a new turn of the conversation. The history sits
 * inside its `<对话历史>` fence either way, but the turns inside are the template's markers too:
 * `neutraliseTurnMarkers` puts a full-width `＞` (U+FF1E) before such a line's role word
 * (`＞User: …`), so it stays visibly the message's own, quoted text and no reader of the history
 * (a model, a person, or the simulated provider counting turns) takes it for a turn. The first
 * line of a content follows the real marker on the same line, so it is left alone; content
 * without such a line is returned unchanged.
 */
const FORGED_TURN = /([\n\r][ \t\u3000]*)(?=(?:user|assistant)[ \t\u3000]*[:：])/giu;

/** Content of one message, unable to forge a `User:` / `Assistant:` line of the history. */
export function neutraliseTurnMarkers(content: string): string {
	return content.replace(FORGED_TURN, `$1${TURN_LOOKALIKE}`);
}

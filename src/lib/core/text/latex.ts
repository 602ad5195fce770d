/**
 * Text for a LaTeX document (the leaderboard's table). A model id is hostile: `\input{…}`, an
 * `&` that shifts a column, a `%` that comments out the rest of the row, or a control character
 * must print as the characters they are. Controls, bidi and invalid characters are first made
 * visible (`escapeControl`, `\uXXXX`), then every LaTeX special character is escaped.
 */
import { escapeControl } from './escape-control';

const SPECIAL: Record<string, string> = {
	'\\': '\\textbackslash{}',
	'{': '\\{',
	'}': '\\}',
	'&': '\\&',
	'%': '\\%',
	$: '\\$',
	'#': '\\#',
	_: '\\_',
	'~': '\\textasciitilde{}',
	'^': '\\textasciicircum{}',
	'<': '\\textless{}',
	'>': '\\textgreater{}',
	'|': '\\textbar{}'
};

/** `text` safe inside a LaTeX table cell (text mode). */
export function escapeLatex(text: string): string {
	return escapeControl(text).replace(/[\\{}&%$#_~^<>|]/g, (ch) => SPECIAL[ch]);
}

/**
 * `text` safe inside a Markdown table cell: controls visible, inline markup escaped (a cell never
 * starts a line, so heading and list markers need nothing).
 */
export function escapeMarkdown(text: string): string {
	return escapeControl(text).replace(/[\\`*_{}[\]<>|~]/g, '\\$&');
}

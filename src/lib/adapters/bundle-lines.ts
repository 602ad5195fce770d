/** A JSONL file of a bundle read: its entries parsed, and each one's line as written. */
import { stripBom } from '../core/text';
import { decode, type Problems } from './bundle-problems';

/**
 * The file's text parsed by `parse` (whose errors name file and line), with the line each entry
 * came from, without BOM or line end (an export writes them back as they were); null with the
 * problem noted.
 */
export function readJsonlLines<T>(
	bytes: Uint8Array,
	label: string,
	problems: Problems,
	parse: (text: string) => T[]
): { entries: T[]; lines: string[] } | null {
	const text = decode(bytes, label, problems);
	if (text === null) return null;
	let entries: T[];
	try {
		entries = parse(text);
	} catch (e) {
		problems.pushError(e);
		return null;
	}
	const lines = stripBom(text)
		.split('\n')
		.slice(0, entries.length)
		.map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line));
	return { entries, lines };
}

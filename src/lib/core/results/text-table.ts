/** Plain-text tables that stay aligned in a terminal when cells hold Chinese text. */

const WIDE: readonly [number, number][] = [
	[0x1100, 0x115f],
	[0x2e80, 0x303e],
	[0x3041, 0x33ff],
	[0x3400, 0x4dbf],
	[0x4e00, 0x9fff],
	[0xa000, 0xa4cf],
	[0xac00, 0xd7a3],
	[0xf900, 0xfaff],
	[0xfe30, 0xfe4f],
	[0xff00, 0xff60],
	[0xffe0, 0xffe6],
	[0x20000, 0x3fffd]
];

/** Terminal columns a string takes: East Asian wide characters (e.g. 婚姻家庭) take two. */
export function displayWidth(text: string): number {
	let width = 0;
	for (const ch of text) {
		const cp = ch.codePointAt(0)!;
		width += WIDE.some(([lo, hi]) => cp >= lo && cp <= hi) ? 2 : 1;
	}
	return width;
}

/** Columns are left-aligned for text and right-aligned for numbers. */
export type Align = 'left' | 'right';

/** Renders a header row, a rule and the rows, columns separated by two spaces. */
export function renderTable(headers: string[], rows: string[][], align: Align[]): string {
	const widths = headers.map((h, c) =>
		Math.max(displayWidth(h), ...rows.map((r) => displayWidth(r[c] ?? '')))
	);
	const line = (cells: string[]) =>
		cells
			.map((cell, c) => {
				const pad = ' '.repeat(widths[c] - displayWidth(cell));
				return align[c] === 'right' ? pad + cell : cell + pad;
			})
			.join('  ')
			.trimEnd();
	return [line(headers), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

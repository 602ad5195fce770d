/**
 * A figure of the Results page as a standalone SVG: grouped bars, whiskers (bootstrap interval
 * or ± SD) clipped to the axis, a "—" where a value is undefined, the y axis and a legend.
 * Pure string building from the same Figure the page's chart and table show, so the SVG
 * export, the PNG export and the HTML report draw exactly those numbers. Every text is
 * escaped; model ids and class names are hostile.
 */
import { textHead } from '$lib/core/text/clip';
import { escapeControl } from '$lib/core/text/escape-control';
import { formatNumber } from '$lib/core/report/format';
import { axisTitle, type Figure } from '$lib/view/figures';
import {
	clipToAxis,
	formatTick,
	ticksOf,
	whiskerLegend,
	whiskerMark,
	yRange,
	type WhiskerKind
} from './chart-scale';
import { CHART } from './chart-style';

export interface SvgOptions {
	/** `screen`: the page's proportions with a title. `paper`: compact, small type, no title. */
	layout?: 'screen' | 'paper';
	/** Width in CSS pixels (user units). @default 720 (screen), 480 (paper) */
	width?: number;
	/** Height in CSS pixels. @default 360 (screen), 220 (paper) */
	height?: number;
}

/** Longest label drawn; longer ones end in "…" (the table keeps the full text). */
const MAX_LABEL = 60;

/**
 * Text safe inside an XML element or attribute: what XML cannot hold or a reader should not
 * follow shown as `\uXXXX` (`escapeControl`), then the markup characters as entities.
 */
export function xmlEscape(text: string): string {
	return escapeControl(text)
		.replace(/&/g, '&amp;')
		.replace(/</g, '&lt;')
		.replace(/>/g, '&gt;')
		.replace(/"/g, '&quot;')
		.replace(/'/g, '&#39;');
}

function clip(text: string, max = MAX_LABEL): string {
	return text.length <= max ? text : `${textHead(text, max - 1)}…`;
}

/** Rough advance width: CJK and other wide characters count about twice a Latin one. */
function textWidth(text: string, size: number): number {
	let w = 0;
	for (const ch of text) w += /[\u1100-\uffff]/.test(ch) ? size : size * 0.58;
	return w;
}

/** A colour from the figure, passed through only when it is a plain hex colour. */
function safeColor(color: string): string {
	return /^#[0-9a-fA-F]{3,8}$/.test(color) ? color : '#5a6475';
}

const f = (v: number) => Number(v.toFixed(2)).toString();

/**
 * A label in lines of at most `max` px (by `textWidth`): broken at spaces where the words fit,
 * else between characters (Chinese names have no spaces); two lines at most, the second ending
 * in "…" when the label is longer still.
 */
export function wrapLabel(text: string, max: number, size: number): string[] {
	if (textWidth(text, size) <= max) return [text];
	const chars = [...text];
	let cut = 0;
	let width = 0;
	while (cut < chars.length && width + textWidth(chars[cut], size) <= max) {
		width += textWidth(chars[cut], size);
		cut++;
	}
	const space = chars.slice(0, cut + 1).lastIndexOf(' ');
	if (space > 0) cut = space;
	cut = Math.max(1, cut);
	const first = chars.slice(0, cut).join('').trimEnd();
	let rest = chars.slice(cut).join('').trimStart();
	if (textWidth(rest, size) > max) {
		const kept = [...rest];
		while (kept.length > 1 && textWidth(`${kept.join('')}…`, size) > max) kept.pop();
		rest = `${kept.join('')}…`;
	}
	return rest ? [first, rest] : [first];
}

/** A cell that stands for no case: no cell, none counted, or an undefined group mean. */
const noCases = (cell: Figure['cells'][number][number] | undefined) =>
	!cell || (cell.counts ? cell.counts.cases === 0 : cell.value === null);

/** The figure without the categories (classes) where no series has a case: nothing to draw. */
function withoutEmptyCategories(figure: Figure): Figure {
	const kept = figure.categories
		.map((_, c) => c)
		.filter((c) => figure.series.some((_, s) => !noCases(figure.cells[s]?.[c])));
	if (kept.length === figure.categories.length) return figure;
	return {
		...figure,
		categories: kept.map((c) => figure.categories[c]),
		cells: figure.cells.map((row) => kept.map((c) => row[c]))
	};
}

/**
 * A whisker from `lo` to `hi` (px) at `x`: ± SD solid with caps `cap` wide each side; one run's
 * 95% interval dashed with caps half as wide, so the two never read alike (`legend`: the mark of
 * the legend's key, not a bar's).
 */
function whiskerPath(
	kind: WhiskerKind,
	x: number,
	lo: number,
	hi: number,
	cap: number,
	legend = false
): string {
	const c = kind === 'sd' ? cap : cap / 2;
	const dash = kind === 'ci' ? ' stroke-dasharray="3 2"' : '';
	const role = legend ? `class="whisker-key"` : `class="whisker"`;
	return `<path ${role} d="M${f(x)} ${f(hi)}V${f(lo)}M${f(x - c)} ${f(hi)}H${f(x + c)}M${f(x - c)} ${f(lo)}H${f(x + c)}" data-${legend ? 'legend' : 'whisker'}="${kind}" stroke="${CHART.text}" stroke-width="1.25"${dash} fill="none"/>`;
}

/** The figure as an SVG document (a string starting with `<svg`). */
export function figureSvg(shown: Figure, options: SvgOptions = {}): string {
	const paper = options.layout === 'paper';
	const figure = paper ? withoutEmptyCategories(shown) : shown;
	const width = options.width ?? (paper ? 480 : 720);
	const height = options.height ?? (paper ? 220 : 360);
	const size = paper ? 9 : 12;
	const small = paper ? 8 : 11;
	const range = yRange(figure);
	const ticks = ticksOf(range);

	// Legend: series in rows, then what each kind of whisker drawn shows, wrapped to the width.
	const legendItems: { text: string; color: string; whisker?: WhiskerKind }[] = [
		...figure.series.map((s) => ({ text: clip(s.label), color: safeColor(s.color) })),
		...whiskerLegend(figure).map((w) => ({ text: w.text, color: CHART.text, whisker: w.kind }))
	];
	const box = paper ? 8 : 11;
	const legendRows: { text: string; color: string; whisker?: WhiskerKind; x: number }[][] = [[]];
	let x = 0;
	for (const item of legendItems) {
		const w = box + 4 + textWidth(item.text, small) + 14;
		if (x > 0 && x + w > width - 16) {
			legendRows.push([]);
			x = 0;
		}
		legendRows[legendRows.length - 1].push({ ...item, x });
		x += w;
	}
	const legendLine = small + 6;
	const legendHeight = legendItems.length ? legendRows.length * legendLine + 4 : 0;

	const top = (paper ? 6 : 34) + (paper ? legendHeight : 0);
	const left = paper ? 34 : 48;
	const right = 10;
	const plotW = Math.max(10, width - left - right);
	const nCat = Math.max(1, figure.categories.length);
	// Each class's name within its own slot: on two lines where one is too long, never overlapping.
	const catLines = figure.categories.map((cat) =>
		wrapLabel(clip(cat, paper ? 16 : 28), plotW / nCat - 4, size)
	);
	const extraLines = Math.max(0, ...catLines.map((l) => l.length - 1));
	const bottom = size + 14 + extraLines * (size + 2) + (paper ? 0 : legendHeight + 8);
	const plotH = Math.max(10, height - top - bottom);
	const yPx = (v: number) => top + ((range.max - v) / (range.max - range.min)) * plotH;

	const out: string[] = [];
	out.push(
		`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" ` +
			`font-family="${xmlEscape(CHART.font)}" role="img" aria-label="${xmlEscape(clip(figure.title, 200))}">`
	);
	out.push(`<title>${xmlEscape(figure.title)}</title>`);
	out.push(`<rect width="${width}" height="${height}" fill="#ffffff"/>`);
	if (!paper) {
		out.push(
			`<text x="${left}" y="20" font-size="14" font-weight="600" fill="${CHART.text}">${xmlEscape(clip(figure.title, 120))}</text>`
		);
	}

	// Grid and y ticks.
	for (const t of ticks) {
		const y = f(yPx(t));
		out.push(
			`<line x1="${left}" x2="${left + plotW}" y1="${y}" y2="${y}" stroke="${CHART.grid}" stroke-width="1"/>`
		);
		out.push(
			`<text x="${left - 6}" y="${y}" font-size="${small}" fill="${CHART.muted}" text-anchor="end" dominant-baseline="middle">${formatTick(t)}</text>`
		);
	}
	if (range.min < 0) {
		const y = f(yPx(0));
		out.push(
			`<line x1="${left}" x2="${left + plotW}" y1="${y}" y2="${y}" stroke="${CHART.muted}" stroke-width="1"/>`
		);
	}
	out.push(
		`<text transform="translate(${paper ? 9 : 12} ${f(top + plotH / 2)}) rotate(-90)" font-size="${small}" fill="${CHART.muted}" text-anchor="middle">${xmlEscape(axisTitle(figure))}</text>`
	);

	// Bars.
	const nSer = Math.max(1, figure.series.length);
	const groupW = plotW / nCat;
	const barW = Math.min(paper ? 28 : 44, ((groupW * 0.78) / nSer) * 0.92);
	const slotW = (groupW * 0.78) / nSer;
	const base = yPx(Math.max(0, range.min));
	figure.categories.forEach((cat, c) => {
		const cx = left + groupW * (c + 0.5);
		const lines = catLines[c]
			.map(
				(line, i) => `<tspan x="${f(cx)}" dy="${i === 0 ? 0 : size + 2}">${xmlEscape(line)}</tspan>`
			)
			.join('');
		out.push(
			`<text x="${f(cx)}" y="${f(top + plotH + size + 4)}" font-size="${size}" fill="${CHART.text}" text-anchor="middle" data-category="">${lines}</text>`
		);
		figure.series.forEach((series, s) => {
			const cell = figure.cells[s]?.[c];
			if (!cell) return;
			const color = safeColor(series.color);
			const bx = cx - (groupW * 0.78) / 2 + slotW * (s + 0.5);
			if (cell.value === null) {
				out.push(
					`<text x="${f(bx)}" y="${f(base - 3)}" font-size="${size + 1}" font-weight="600" fill="${color}" text-anchor="middle" data-undefined="true">—</text>`
				);
				return;
			}
			const v = Math.max(range.min, Math.min(range.max, cell.value));
			const y0 = base;
			const y1 = yPx(v);
			const yTop = Math.min(y0, y1);
			const h = Math.abs(y0 - y1);
			out.push(
				`<rect x="${f(bx - barW / 2)}" y="${f(yTop)}" width="${f(barW)}" height="${f(h)}" fill="${color}" data-value="${cell.value}"><title>${xmlEscape(`${series.label} · ${cat}: ${formatNumber(cell.value)}`)}</title></rect>`
			);
			const whisker = whiskerMark(cell, figure);
			const clipped = whisker && clipToAxis(whisker.range, range);
			if (clipped) {
				const cap = Math.min(paper ? 5 : 8, barW / 3);
				out.push(whiskerPath(whisker.kind, bx, yPx(clipped[0]), yPx(clipped[1]), cap));
			}
		});
	});
	out.push(
		`<line x1="${left}" x2="${left + plotW}" y1="${f(top + plotH)}" y2="${f(top + plotH)}" stroke="${CHART.muted}" stroke-width="1"/>`
	);

	// Legend.
	const legendTop = paper ? 4 : height - legendHeight;
	legendRows.forEach((row, r) => {
		const y = legendTop + r * legendLine;
		for (const item of row) {
			const lx = (paper ? left : 16) + item.x;
			out.push(
				item.whisker
					? whiskerPath(item.whisker, lx + box / 2, y + box, y, box / 2, true)
					: `<rect x="${f(lx)}" y="${f(y)}" width="${box}" height="${box}" fill="${item.color}"/>`
			);
			out.push(
				`<text x="${f(lx + box + 4)}" y="${f(y + box / 2)}" font-size="${small}" fill="${CHART.text}" dominant-baseline="middle">${xmlEscape(item.text)}</text>`
			);
		}
	});
	out.push('</svg>');
	return out.join('\n');
}

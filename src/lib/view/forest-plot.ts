/**
 * The leaderboard's forest plot as a standalone SVG: one line per model, its mean as a dot and
 * the 95% case-bootstrap interval of the mean as a whisker, on a shared axis. Pure string
 * building (the SVG and PNG exports draw it); model ids are hostile and escaped.
 */
import type { PaperRow } from '$lib/core/leaderboard/paper-table';
import type { ColumnKey } from '$lib/core/protocol/metrics';
import { formatTick, ticksOf } from './chart-scale';
import { xmlEscape } from './svg-chart';

const FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, Arial, 'Noto Sans SC', sans-serif";
const MAX_LABEL = 40;
const clip = (t: string) =>
	[...t].length <= MAX_LABEL ? t : `${[...t].slice(0, MAX_LABEL - 1).join('')}…`;
const f = (v: number) => Number(v.toFixed(2)).toString();

export interface ForestSize {
	width: number;
	height: number;
}

export function forestSize(rows: number): ForestSize {
	return { width: 640, height: 56 + 26 * Math.max(1, rows) };
}

/** Steps of the forest plot's axis, times a power of ten: ticks read 0.1, 0.2 or 0.25, 0.5, … */
const NICE_STEPS = [1, 2, 2.5, 5, 10];

/**
 * The axis of values from `lo` to `hi`: round ticks (a step of 1, 2, 2.5 or 5 times a power of
 * ten, about four intervals) from the tick at or below `lo` to the one at or above `hi`, and the
 * decimals that write each tick exactly.
 */
export function forestAxis(lo: number, hi: number): { ticks: number[]; decimals: number } {
	if (hi - lo < 1e-9) [lo, hi] = [lo - 0.05, hi + 0.05];
	const raw = (hi - lo) / 4;
	const power = 10 ** Math.floor(Math.log10(raw));
	const step = NICE_STEPS.find((s) => s * power >= raw - 1e-12)! * power;
	const min = Math.floor(lo / step + 1e-9) * step;
	const max = Math.ceil(hi / step - 1e-9) * step;
	const decimals = Math.max(
		0,
		-Math.floor(Math.log10(step) + 1e-9) + (Math.round((step / power) * 10) % 10 === 5 ? 1 : 0)
	);
	return { ticks: ticksOf({ min, max }, step), decimals };
}

/** The plot of `column` over `rows` (in their order), with `title` above. */
export function forestSvg(rows: readonly PaperRow[], column: ColumnKey, title: string): string {
	const { width, height } = forestSize(rows.length);
	const left = 200;
	const right = width - 24;
	const values = rows.flatMap((r) => {
		const c = r.cells[column];
		return [c.mean, c.ci95?.[0], c.ci95?.[1]].filter((v): v is number => typeof v === 'number');
	});
	const axis = forestAxis(
		values.length ? Math.min(...values) : 0,
		values.length ? Math.max(...values) : 1
	);
	const [lo, hi] = [axis.ticks[0], axis.ticks[axis.ticks.length - 1]];
	const x = (v: number) => left + ((v - lo) / (hi - lo)) * (right - left);
	const parts = [
		`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="${xmlEscape(FONT)}" font-size="12">`,
		`<rect width="${width}" height="${height}" fill="#ffffff"/>`,
		`<text x="12" y="20" font-weight="600" fill="#1c2330">${xmlEscape(title)}</text>`
	];
	const axisY = height - 24;
	for (const t of axis.ticks) {
		parts.push(
			`<line x1="${f(x(t))}" y1="32" x2="${f(x(t))}" y2="${axisY}" stroke="#e6e9ee"/>`,
			`<text x="${f(x(t))}" y="${axisY + 16}" text-anchor="middle" fill="#5a6475">${formatTick(t, axis.decimals)}</text>`
		);
	}
	rows.forEach((row, i) => {
		const y = 44 + 26 * i;
		const cell = row.cells[column];
		parts.push(
			`<text x="${left - 10}" y="${y + 4}" text-anchor="end" fill="#1c2330">${xmlEscape(clip(row.id))}</text>`
		);
		if (cell.mean === null) {
			parts.push(`<text x="${left + 4}" y="${y + 4}" fill="#5a6475">—</text>`);
			return;
		}
		if (cell.ci95) {
			const [a, b] = cell.ci95;
			parts.push(
				`<line x1="${f(x(a))}" y1="${y}" x2="${f(x(b))}" y2="${y}" stroke="#2c5fa8" stroke-width="2"/>`,
				`<line x1="${f(x(a))}" y1="${y - 5}" x2="${f(x(a))}" y2="${y + 5}" stroke="#2c5fa8" stroke-width="2"/>`,
				`<line x1="${f(x(b))}" y1="${y - 5}" x2="${f(x(b))}" y2="${y + 5}" stroke="#2c5fa8" stroke-width="2"/>`
			);
		}
		const fill = cell.best ? '#1c2330' : '#2c5fa8';
		parts.push(`<circle cx="${f(x(cell.mean))}" cy="${y}" r="4.5" fill="${fill}"/>`);
	});
	parts.push('</svg>');
	return parts.join('\n');
}

/**
 * Chart.js, loaded only by the Results page (dynamic import), with just the pieces a grouped bar
 * chart needs, and three small plugins of our own: error bars (a bootstrap interval, or
 * mean ± SD, clipped to the axis), a "—" where a value is undefined (so it is never mistaken
 * for 0), and an opaque white background (a copied canvas image is never transparent).
 */
import {
	BarController,
	BarElement,
	CategoryScale,
	Chart,
	Legend,
	LinearScale,
	Title,
	Tooltip,
	type ChartConfiguration,
	type Plugin
} from 'chart.js';
import {
	clipToAxis,
	formatTick,
	TICK_STEP,
	whiskerLegend,
	whiskerMark,
	yRange,
	type WhiskerKind
} from '$lib/view/chart-scale';
import { axisTitle, type Figure } from '$lib/view/figures';
import { cellText } from '$lib/view/table-format';
import { CHART } from '$lib/view/chart-style';

Chart.register(BarController, BarElement, CategoryScale, LinearScale, Legend, Tooltip, Title);

/** One run's 95% interval is dashed, ± SD solid (svg-chart.ts draws them alike). */
const DASH: Record<WhiskerKind, number[]> = { sd: [], ci: [3, 2] };

/** Per dataset: the whisker of each bar (a CI or ± SD; null: none), which bars are undefined. */
interface Extra {
	whiskers?: ({ range: [number, number]; kind: WhiskerKind } | null)[];
	undefinedAt?: boolean[];
}

const errorBars: Plugin<'bar'> = {
	id: 'lexpilotErrorBars',
	afterDatasetsDraw(chart) {
		const { ctx } = chart;
		const y = chart.scales.y;
		chart.data.datasets.forEach((dataset, d) => {
			const meta = chart.getDatasetMeta(d);
			if (meta.hidden) return;
			const extra = dataset as unknown as Extra;
			meta.data.forEach((bar, i) => {
				const { x, width } = bar.getProps(['x', 'width'], true) as { x: number; width: number };
				const value = dataset.data[i] as number | null;
				if (extra.undefinedAt?.[i]) {
					// An undefined value: a dash on the baseline, in the series colour.
					ctx.save();
					ctx.fillStyle = dataset.backgroundColor as string;
					ctx.font = `600 13px ${CHART.font}`;
					ctx.textAlign = 'center';
					ctx.textBaseline = 'bottom';
					ctx.fillText('—', x, y.getPixelForValue(Math.max(0, y.min)) - 2);
					ctx.restore();
					return;
				}
				const whisker = extra.whiskers?.[i];
				if (value === null || !whisker) return;
				// Clipped to the axis: a whisker never runs past 0 or 1 into the labels.
				const clipped = clipToAxis(whisker.range, { min: y.min, max: y.max });
				if (!clipped) return;
				const top = y.getPixelForValue(clipped[1]);
				const bottom = y.getPixelForValue(clipped[0]);
				const cap = Math.min(8, width / 3) / (whisker.kind === 'ci' ? 2 : 1);
				ctx.save();
				ctx.strokeStyle = CHART.text;
				ctx.lineWidth = 1.25;
				ctx.setLineDash(DASH[whisker.kind]);
				ctx.beginPath();
				ctx.moveTo(x, top);
				ctx.lineTo(x, bottom);
				ctx.moveTo(x - cap, top);
				ctx.lineTo(x + cap, top);
				ctx.moveTo(x - cap, bottom);
				ctx.lineTo(x + cap, bottom);
				ctx.stroke();
				ctx.restore();
			});
		});
	}
};

const background: Plugin<'bar'> = {
	id: 'lexpilotBackground',
	beforeDraw(chart) {
		const { ctx, width, height } = chart;
		ctx.save();
		ctx.globalCompositeOperation = 'destination-over';
		ctx.fillStyle = '#ffffff';
		ctx.fillRect(0, 0, width, height);
		ctx.restore();
	}
};

function configOf(figure: Figure): ChartConfiguration<'bar'> {
	const range = yRange(figure);
	return {
		type: 'bar',
		data: {
			labels: figure.categories,
			datasets: figure.series.map((series, s) => ({
				label: series.label,
				data: figure.cells[s].map((c) => c.value),
				backgroundColor: series.color,
				borderColor: series.color,
				borderWidth: 0,
				maxBarThickness: 44,
				categoryPercentage: 0.78,
				barPercentage: 0.92,
				whiskers: figure.cells[s].map((c) => whiskerMark(c, figure)),
				undefinedAt: figure.cells[s].map((c) => c.value === null)
			}))
		},
		options: {
			animation: false,
			responsive: true,
			maintainAspectRatio: false,
			font: { family: CHART.font },
			layout: { padding: { top: 4, right: 8 } },
			scales: {
				x: {
					grid: { display: false },
					ticks: { color: CHART.text, font: { family: CHART.font, size: 12 } }
				},
				y: {
					min: range.min,
					max: range.max,
					grid: { color: CHART.grid },
					border: { display: false },
					ticks: {
						color: CHART.muted,
						font: { family: CHART.font, size: 11 },
						stepSize: TICK_STEP,
						callback: (value) => formatTick(Number(value))
					},
					title: {
						display: true,
						text: axisTitle(figure),
						color: CHART.muted,
						font: { family: CHART.font, size: 11 }
					}
				}
			},
			plugins: {
				title: {
					display: false,
					text: figure.title,
					color: CHART.text,
					font: { family: CHART.font, size: 14, weight: 600 }
				},
				legend: {
					position: 'bottom',
					// The whisker keys are no dataset: clicking them hides nothing.
					onClick(event, item, legend) {
						if (item.datasetIndex === undefined) return;
						Chart.defaults.plugins.legend.onClick.call(legend, event, item, legend);
					},
					labels: {
						boxWidth: 12,
						boxHeight: 12,
						color: CHART.text,
						font: { family: CHART.font, size: 12 },
						// The series, then what each kind of whisker drawn shows (a dashed or solid box).
						generateLabels: (chart) => [
							...Chart.defaults.plugins.legend.labels.generateLabels(chart),
							...whiskerLegend(figure).map((w) => ({
								text: w.text,
								fillStyle: 'rgba(0, 0, 0, 0)',
								strokeStyle: CHART.text,
								fontColor: CHART.text,
								lineWidth: 1.25,
								lineDash: DASH[w.kind],
								hidden: false
							}))
						]
					}
				},
				tooltip: {
					callbacks: {
						label(item) {
							const cell = figure.cells[item.datasetIndex][item.dataIndex];
							const shown = { ...cell, ci: figure.withCi ? cell.ci : undefined };
							return `${item.dataset.label}: ${cellText(shown, figure.withSd)}`;
						},
						afterLabel(item) {
							return figure.cells[item.datasetIndex][item.dataIndex].notes;
						}
					}
				}
			}
		},
		plugins: [errorBars, background]
	};
}

/** A drawn chart: redraw with a new figure, destroy. (Exports are drawn by view/svg-chart.ts.) */
export interface BarChartHandle {
	update(figure: Figure): void;
	destroy(): void;
}

export function createBarChart(canvas: HTMLCanvasElement, initial: Figure): BarChartHandle {
	const chart = new Chart(canvas, configOf(initial));
	return {
		update(figure) {
			const next = configOf(figure);
			chart.data = next.data;
			chart.options = next.options!;
			chart.update('none');
		},
		destroy() {
			chart.destroy();
		}
	};
}

/**
 * The type and colours every chart is drawn in: the Results page's canvas (Chart.js) and the
 * standalone SVG of the exports and the HTML report, so a copied figure looks like the page's.
 */
export const CHART = {
	font:
		"system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, 'Noto Sans CJK SC', " +
		"'Noto Sans SC', 'PingFang SC', 'Microsoft YaHei', sans-serif",
	text: '#1c2330',
	muted: '#5a6475',
	grid: '#e6e9ee'
} as const;

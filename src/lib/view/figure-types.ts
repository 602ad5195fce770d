/**
 * What a figure of the Results page is: its series, cells and metric references, and the
 * palette its series are drawn in.
 */
import type { ScoreKey } from '$lib/core/protocol';
import type { Locale } from '$lib/paraglide/runtime';

/**
 * The language of a figure's words: the interface's (undefined) or the one asked for exports.
 * Metric names that are the paper's terms (Macro-F1, QWK, Direct…) are the same in both.
 */
export type FigureLocale = Locale | undefined;

/** Which stage a metric belongs to: LCA, DCG or one LJP setup. */
export type Stage = ScoreKey;

export interface MetricRef {
	stage: Stage;
	key: string;
	/** How tables and axes name it, e.g. `Macro-F1`, `Direct QWK`. */
	label: string;
}

/** Runs side by side, or each group of comparable runs as mean ± SD. */
export type SeriesMode = 'runs' | 'groups';

export interface Series {
	/** `run_id/model_dir` for a run; the member keys joined for a group. */
	id: string;
	/** Full name: model and run (or number of runs), `(simulated)` when mixed with real runs. */
	label: string;
	/** As short as still unambiguous among the shown series, for table headings. */
	short: string;
	color: string;
	model: string;
	runIds: string[];
	simulated: boolean;
}

/** One value of a figure. */
export interface Cell {
	/** The run's value, or the group's mean; null when undefined. */
	value: number | null;
	/** Sample SD over the group's runs (groups only; null for one run). */
	sd?: number | null;
	/**
	 * 95% case-bootstrap interval of a run's value (a group of one run: that run's); null when
	 * undefined or not computed (yet).
	 */
	ci?: [number, number] | null;
	/** Cases (and claims, for LJP) the value rests on, where one run's figure is shown. */
	counts?: { cases: number; claims: number | null };
	/** Why the value is undefined, partial or over fewer runs; shown as footnotes. */
	notes: string[];
	/** Over a stage that is not complete yet (one of the notes says so). */
	partial?: boolean;
}

export interface Figure {
	id: string;
	title: string;
	/** One sentence under the title: what is measured, and over what. */
	description: string;
	/** Names the categories in the table's corner, e.g. `Metric`, `Class`. */
	categoryTitle: string;
	categories: string[];
	series: Series[];
	/** `cells[s][c]`: series s, category c. */
	cells: Cell[][];
	/** `rate`: fixed 0–1 axis. `kappa`: 1 at the top, 0 or below at the bottom. */
	scale: 'rate' | 'kappa';
	/** True in groups mode: cells carry an SD and bars an error bar. */
	withSd: boolean;
	/** True once the bootstrap intervals are in: cells carry a `ci` and bars a whisker. */
	withCi: boolean;
	/** An LJP figure: its counts are claims as well as cases. */
	claims?: boolean;
	/** Tables list series as rows (overall figures) or categories as rows (class figures). */
	rows: 'series' | 'categories';
	/** The language of its words, so its tables and exports speak the same one. */
	locale?: Locale;
}

/** Okabe–Ito colours: distinguishable with every common colour-vision deficiency. */
export const PALETTE = [
	'#0072B2',
	'#E69F00',
	'#009E73',
	'#D55E00',
	'#CC79A7',
	'#56B4E9',
	'#8C6D31',
	'#5A6475'
];

/**
 * What the user picks for the figures by cause class, its default and the choices each class
 * figure offers: apart from the figures themselves (`result-figures.ts`), so the page's URL is
 * read at first load while the figures load with the first report.
 */
import type { LjpSetup } from '$lib/core/metrics/types';
import { LJP_SETUP_NAMES, metricsOf } from '$lib/core/protocol/metrics';
import type { LjpMeasure } from './figure-metrics';

/** What the user picked for the figures by cause class. */
export interface FigureChoice {
	/** An `LCA_METRICS` key. */
	lcaClass: string;
	/** A `DCG_METRICS` key. */
	dcgClass: string;
	ljpSetup: LjpSetup;
	ljpMeasure: LjpMeasure;
}

export const DEFAULT_FIGURE_CHOICE: Readonly<FigureChoice> = {
	lcaClass: 'macro_f1',
	dcgClass: 'success_rate',
	ljpSetup: 'direct',
	ljpMeasure: 'qwk'
};

/**
 * The values each class figure offers, from the metric table (no labels: the page reads its URL
 * at first load, and the names load with the figures, `choiceOptions` in `result-figures.ts`).
 */
const ALLOWED: Record<keyof FigureChoice, readonly string[]> = {
	lcaClass: metricsOf('lca').map((row) => row.key),
	dcgClass: metricsOf('dcg').map((row) => row.key),
	ljpSetup: Object.keys(LJP_SETUP_NAMES),
	ljpMeasure: metricsOf('direct').map((row) => row.key)
};

/** A choice with every unknown value (a hand-edited link) replaced by its default. */
export function checkedChoice(choice: Partial<Record<keyof FigureChoice, string>>): FigureChoice {
	const pick = <K extends keyof FigureChoice>(key: K): FigureChoice[K] => {
		const known = ALLOWED[key].includes(choice[key] ?? '');
		return (known ? choice[key] : DEFAULT_FIGURE_CHOICE[key]) as FigureChoice[K];
	};
	return {
		lcaClass: pick('lcaClass'),
		dcgClass: pick('dcgClass'),
		ljpSetup: pick('ljpSetup'),
		ljpMeasure: pick('ljpMeasure')
	};
}

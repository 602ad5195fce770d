/**
 * What the user picks for the figures by cause class, its default and the choices each class
 * figure offers: apart from the figures themselves (`result-figures.ts`), so the page's URL is
 * read at first load while the figures load with the first report.
 */
import { LJP_SETUPS, type LjpSetup } from '$lib/core/metrics/types';
import type { Locale } from '$lib/paraglide/runtime';
import {
	dcgMetrics,
	LCA_METRICS,
	LJP_MEASURE_KEYS,
	LJP_SETUP_NAMES,
	ljpMeasureName,
	type LjpMeasure
} from './figures';

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

/** The choices each class figure offers, as pickers list them, named in `locale`. */
export function choiceOptions(locale?: Locale) {
	return {
		lcaClass: LCA_METRICS.map((metric) => ({ value: metric.key, label: metric.label })),
		dcgClass: dcgMetrics(locale).map((metric) => ({ value: metric.key, label: metric.label })),
		ljpSetup: LJP_SETUPS.map((s) => ({ value: s as string, label: LJP_SETUP_NAMES[s] })),
		ljpMeasure: LJP_MEASURE_KEYS.map((k) => ({
			value: k as string,
			label: ljpMeasureName(k, locale)
		}))
	};
}

/** A choice with every unknown value (a hand-edited link) replaced by its default. */
export function checkedChoice(choice: Partial<Record<keyof FigureChoice, string>>): FigureChoice {
	const options = choiceOptions('en');
	const pick = <K extends keyof FigureChoice>(key: K): FigureChoice[K] => {
		const known = options[key].some((o) => o.value === choice[key]);
		return (known ? choice[key] : DEFAULT_FIGURE_CHOICE[key]) as FigureChoice[K];
	};
	return {
		lcaClass: pick('lcaClass'),
		dcgClass: pick('dcgClass'),
		ljpSetup: pick('ljpSetup'),
		ljpMeasure: pick('ljpMeasure')
	};
}

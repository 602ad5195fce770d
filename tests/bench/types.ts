/** What a bench module reports: rows of one table. */

/** One measured value. */
export interface BenchRow {
	/** What was measured, e.g. 'loadDataset, 432 cases / 864 histories (median)'. */
	name: string;
	value: number;
	/** Unit of `value` and `target`, e.g. 'ms', 'MB'. */
	unit: string;
	/** The goal, or null for an informational row. */
	target: number | null;
	/**
	 * Which side of the target is good.
	 * @default 'lower'
	 */
	better?: 'lower' | 'higher';
}

/** A bench: a name and a function returning its rows. Add one to `BENCHES` in run.ts. */
export interface BenchModule {
	name: string;
	run(): Promise<BenchRow[]>;
}

/**
 * `results --compare A B`: runs A and B, named by run id (and model when a run id has
 * several), compared case by case (metrics/README.md, "Uncertainty"). Refuses runs that do
 * not select the same cases of the same dataset, saying why.
 */
import { UsageError } from '../errors';
import { coded, type CoreText } from '../said';
import { english } from '../voice';
import { parseLayoutPath } from '../layout';
import type { Manifest } from '../records';
import { bootstrapSettings, CI_LEVEL, type BootstrapOptions } from '../metrics/bootstrap';
import type { CaseTable } from '../metrics/case-table';
import { scopeSummary, type ScopeCounts } from '../metrics/confusion';
import type { RateTree } from '../metrics/kernel';
import { alignRows, pairedBootstrap, pairingSaid, type Difference } from '../metrics/paired';
import { pairedPower, type PairedPower } from '../metrics/power';
import type { MetricsTree } from '../metrics/types';
import { computeReport, type BootstrapDescription, type RunReport } from './report';
import type { LayoutSource } from './source';

/** One side of a comparison: a run id, and the model when the run id has several. */
export interface RunRef {
	runId: string;
	/** The evaluated model id or its model folder name. */
	model?: string;
}

export interface CompareOptions {
	a: RunRef;
	b: RunRef;
	bootstrap?: BootstrapOptions;
}

/** Who a side of the comparison is, and its own figures. */
export interface ComparedRun {
	run_id: string;
	model: string;
	model_dir: string;
	metrics: MetricsTree;
	/** The run's own 95% intervals (not those of the difference). */
	ci95: RunReport['ci95'];
	by_class: RunReport['by_class'];
}

/** One class of the comparison: B − A of each rate, and the data it rests on. */
export type ClassComparison = RateTree<Difference> & { counts: ScopeCounts };

export interface ComparisonReport {
	a: ComparedRun;
	b: ComparedRun;
	/** Cases paired (both runs select exactly these). */
	n_cases: number;
	/** B − A of every rate, with its paired-bootstrap interval and p-value. */
	metrics: RateTree<Difference>;
	by_class: Record<string, ClassComparison>;
	power: PairedPower;
	bootstrap: BootstrapDescription;
	/** Context: fields in which the runs differ, and what could not be compared. */
	/** As codes (`../said.ts`); `comparisonJson` says them in English. */
	notes: CoreText[];
}

/** A run as `computeReport`'s `onRun` hands it over: all a comparison needs (plain data). */
export interface LoadedRun {
	run: RunReport;
	manifest: Manifest;
	table: CaseTable;
}

/** How a message names a side: its run id, and its model when given. */
const refSaid = (ref: RunRef): CoreText =>
	ref.model === undefined
		? coded('compare_ref', { runId: JSON.stringify(ref.runId) })
		: coded('compare_ref_model', {
				runId: JSON.stringify(ref.runId),
				model: JSON.stringify(ref.model)
			});

async function findRun(
	source: LayoutSource,
	ref: RunRef,
	side: 'A' | 'B',
	bootstrap: BootstrapOptions
): Promise<LoadedRun> {
	const found: LoadedRun[] = [];
	await computeReport(source, {
		runId: ref.runId,
		model: ref.model,
		bootstrap,
		onRun: (run, manifest, table) => found.push({ run, manifest, table })
	});
	if (found.length === 1) return found[0];
	if (found.length === 0) {
		const ids = new Set<string>();
		for (const path of await source.list()) {
			const parsed = parseLayoutPath(path);
			if (parsed?.kind === 'manifest') ids.add(parsed.run.runId);
		}
		const known = [...ids].sort();
		const shown = known.slice(0, 20).map((id) => JSON.stringify(id));
		const list = `${shown.join(', ')}${known.length > 20 ? ', …' : ''}`;
		throw new UsageError([
			known.length
				? coded('compare_no_run', { side, ids: list }, { ref: [refSaid(ref)] })
				: coded('compare_no_runs_at_all', { side }, { ref: [refSaid(ref)] })
		]);
	}
	const models = found.map((f) => JSON.stringify(f.run.model)).join(', ');
	throw new UsageError([
		coded('compare_ambiguous', { side, count: found.length, models }, { ref: [refSaid(ref)] })
	]);
}

/** Fields that differ between the runs' manifests: what the comparison compares. */
function differences(a: Manifest, b: Manifest): string[] {
	const fields: [string, unknown, unknown][] = [
		['models.evaluated', a.models.evaluated, b.models.evaluated],
		['models.user', a.models.user, b.models.user],
		['models.judge', a.models.judge, b.models.judge],
		['code_sha256', a.code_sha256, b.code_sha256],
		['prompts_sha256', a.prompts_sha256, b.prompts_sha256],
		['settings.temperature', a.settings.temperature, b.settings.temperature],
		['settings.judge_temperature', a.settings.judge_temperature, b.settings.judge_temperature],
		['settings.max_tokens', a.settings.max_tokens, b.settings.max_tokens],
		['simulated', a.simulated, b.simulated]
	];
	return fields.filter(([, x, y]) => x !== y).map(([name]) => name);
}

/**
 * Reads runs A and B from `source` and compares them case by case. Throws UsageError when a
 * run is not found or ambiguous, or when the runs do not select the same cases of the same
 * dataset; CheckpointError for a malformed file (as `results` does).
 */
export async function compareRuns(
	source: LayoutSource,
	options: CompareOptions
): Promise<ComparisonReport> {
	const settings = bootstrapSettings(options.bootstrap);
	const a = await findRun(source, options.a, 'A', settings);
	const b = await findRun(source, options.b, 'B', settings);
	return compareLoaded(a, b, {
		bootstrap: settings,
		what: coded('compare_cannot', {}, { a: [refSaid(options.a)], b: [refSaid(options.b)] }),
		advice: coded('compare_advice_limit', {})
	});
}

/** Why two loaded runs cannot be paired (different datasets or case selections), or null. */
export function comparisonSaid(a: LoadedRun, b: LoadedRun): CoreText | null {
	const [sa, sb] = [a.manifest.dataset.sha256, b.manifest.dataset.sha256];
	if (sa !== sb) return coded('compare_other_dataset', { a: sa.slice(0, 12), b: sb.slice(0, 12) });
	return pairingSaid(a.table, b.table);
}

/**
 * Compares two runs already loaded (the browser posts them to a Web Worker): the same figures
 * and notes as `results --compare`. Throws UsageError, starting with `what`, when they cannot be
 * paired (see `comparisonSaid`).
 */
export function compareLoaded(
	a: LoadedRun,
	b: LoadedRun,
	options: { bootstrap?: BootstrapOptions; what?: CoreText; advice?: CoreText } = {}
): ComparisonReport {
	const settings = bootstrapSettings(options.bootstrap);
	const problem = comparisonSaid(a, b);
	if (problem !== null) {
		const parts = { what: [options.what ?? coded('compare_cannot_runs', {})], problem: [problem] };
		throw new UsageError([
			options.advice
				? coded('compare_refused_advised', {}, { ...parts, advice: [options.advice] })
				: coded('compare_refused', {}, parts)
		]);
	}

	const paired = pairedBootstrap(a.table, b.table, settings);
	const notes = [...paired.notes];
	const differ = differences(a.manifest, b.manifest);
	notes.push(
		differ.length
			? coded('cmp_note_differ', { fields: differ.join(', ') })
			: coded('cmp_note_repeats', {})
	);
	for (const [side, f] of [
		['A', a],
		['B', b]
	] as const) {
		for (const [file, c] of Object.entries(f.run.completeness)) {
			if (c.status !== 'complete') {
				notes.push(
					coded(c.status === 'missing' ? 'cmp_note_missing' : 'cmp_note_incomplete', { side, file })
				);
			}
		}
	}
	const side = (f: LoadedRun): ComparedRun => ({
		run_id: f.run.run_id,
		model: f.run.model,
		model_dir: f.run.model_dir,
		metrics: f.run.metrics,
		ci95: f.run.ci95,
		by_class: f.run.by_class
	});
	return {
		a: side(a),
		b: side(b),
		n_cases: paired.n_cases,
		metrics: paired.metrics,
		by_class: Object.fromEntries(
			Object.entries(paired.by_class).map(([cls, tree]) => {
				const i = a.table.classes.indexOf(cls);
				const counts = scopeSummary(
					i >= 0 ? a.table : b.table,
					i >= 0 ? i : b.table.classes.indexOf(cls)
				).counts;
				return [cls, { ...tree, counts }];
			})
		),
		power: pairedPower(a.table, b.table, alignRows(a.table, b.table)),
		bootstrap: { unit: 'case', method: 'percentile', level: CI_LEVEL, ...settings },
		notes
	};
}

/** The comparison as `results --compare --json` prints it: its notes in English. */
export function comparisonJson(comparison: ComparisonReport): unknown {
	return { ...comparison, notes: comparison.notes.map((n) => english(n)) };
}

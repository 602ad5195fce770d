/**
 * The whole results report of PROTOCOL.md §8 (`results --json`) from an output root in the canonical
 * layout: per run, per run × class, and per group of comparable runs.
 */
import { parseJsonl } from '../jsonl';
import { canonicalJson } from '../hash';
import { coded, type CoreText } from '../said';
import { english } from '../voice';
import { manifestPath, modelDirName, parseLayoutPath, stageFilePath, type RunKey } from '../layout';
import { STAGE_FILES, type Manifest } from '../records';
import { readManifestText } from '../store/manifest-file';
import { aggregateTrees, type Aggregate } from '../metrics/aggregate';
import { orderClasses } from '../metrics/by-class';
import { groupComparable } from '../metrics/groups';
import type { CountTree, MetricsTree, StatTree } from '../metrics/types';
import { EVAL_FILES, type EvalFile } from '../protocol';
import type { EvalRecords, StageCompleteness } from './completeness';
import type { CallTotals } from '../calls/totals';
import { readRunCalls } from './run-calls';
import { computeRunMetrics } from './run-metrics';
import { runStatistics, type ScopeStatistics } from './run-statistics';
import { bootstrapSettings, CI_LEVEL, type BootstrapOptions } from '../metrics/bootstrap';
import type { CaseTable } from '../metrics/case-table';
import type { RunPower } from '../metrics/power';
import { describePath, type LayoutSource } from './source';

export interface ReportOptions {
	/** Only runs with this run id. */
	runId?: string;
	/** Only runs of this model: the evaluated model id or its model folder name. */
	model?: string;
	/**
	 * Score incomplete stages over what is saved so far, marked partial with n of N.
	 * @default false
	 */
	partial?: boolean;
	/**
	 * Compute 95% case-bootstrap intervals (`ci95`) with these settings. Without it every
	 * `ci95` is null: the bootstrap is the one costly part of a report.
	 */
	bootstrap?: BootstrapOptions;
	/**
	 * Called with each run's report, manifest, case table (for paired comparisons) and eval
	 * records (for judge–judge agreement).
	 */
	onRun?: (run: RunReport, manifest: Manifest, table: CaseTable, records: EvalRecords) => void;
}

/** A class of a run: its metrics, intervals, counts and LJP confusion matrices. */
export type ClassReport = MetricsTree & ScopeStatistics;

/** One run: PROTOCOL.md §8 keys first, then what makes a null or partial figure explainable. */
export interface RunReport {
	run_id: string;
	/** The evaluated model id (`manifest.models.evaluated`). */
	model: string;
	model_dir: string;
	metrics: MetricsTree;
	by_class: Record<string, ClassReport>;
	/** 95% case-bootstrap intervals of the rates in `metrics` (null unless `bootstrap`). */
	ci95: ScopeStatistics['ci95'];
	/** Selected cases and their claims. */
	counts: ScopeStatistics['counts'];
	ljp_confusion: ScopeStatistics['ljp_confusion'];
	/** Smallest paired difference a comparison on these cases detects (worst case). */
	power: RunPower;
	/** True when some figure comes from an incomplete stage (only with `partial`). */
	partial: boolean;
	/**
	 * True when no stage file of the run holds a record (a refused or stopped start left only the
	 * manifest). Listed, but never counted as a repetition in a group.
	 */
	empty: boolean;
	completeness: Record<EvalFile, StageCompleteness>;
	/** As codes (`../said.ts`); `reportJson` says them in English. */
	notes: CoreText[];
	/**
	 * Totals of the run's call log (`runs/<run-id>/<model>/calls.jsonl`): calls, retries, tokens per
	 * role and stage, wall time. Null when the run has no call log (or it cannot be read: see notes).
	 */
	calls: CallTotals | null;
}

/** Comparable runs summarised: mean and sample SD per value, over the runs where it is defined. */
export interface GroupReport {
	model: string;
	run_ids: string[];
	n: number;
	mean: StatTree;
	sd: StatTree;
	by_class: Record<string, Aggregate>;
	/** Per value, how many of the n runs it was defined in (the mean and SD are over those). */
	n_defined: CountTree;
	/** True when a member run is partial. */
	partial: boolean;
	/** As codes (`../said.ts`); `reportJson` says them in English. */
	notes: CoreText[];
}

export interface ResultsReport {
	runs: RunReport[];
	groups: GroupReport[];
	/** Whether incomplete stages were scored (`partial` option). */
	partial: boolean;
	/** Files of the layout that could not be used, e.g. results without a manifest. */
	warnings: CoreText[];
	/** How the `ci95` intervals were made; null when they were not (no `bootstrap` option). */
	bootstrap: BootstrapDescription | null;
}

/** The settings of the case bootstrap, so a reader can reproduce the intervals. */
export interface BootstrapDescription {
	unit: 'case';
	method: 'percentile';
	level: number;
	resamples: number;
	seed: number;
}

const collator = new Intl.Collator('en', { numeric: true });

async function readManifest(source: LayoutSource, run: RunKey): Promise<Manifest> {
	const path = manifestPath(run);
	return readManifestText(await source.read(path), describePath(source, path), { run });
}

/**
 * The eval files of `run` that are `present`, parsed and checked record by record, asked for
 * all at once (a store answers them together); an error is the first file's, in file order.
 */
export async function readEvalRecords(
	source: LayoutSource,
	run: RunKey,
	present: ReadonlySet<string>
): Promise<EvalRecords> {
	const read = async (file: EvalFile) => {
		const path = stageFilePath(run, file);
		if (!present.has(path)) return undefined;
		return source.records
			? source.records(path)
			: parseJsonl(await source.read(path), STAGE_FILES[file].schema, describePath(source, path));
	};
	const files = await inOrder(EVAL_FILES.map(read));
	const records: EvalRecords = {};
	EVAL_FILES.forEach((file, i) => {
		if (files[i] !== undefined) (records as Record<EvalFile, unknown>)[file] = files[i];
	});
	return records;
}

/**
 * How many runs are read while an earlier one is scored: a store's reads then overlap each other
 * and the scoring (IndexedDB answers each read after a round trip), while memory holds the
 * records of a few runs, not of every run.
 */
const READ_AHEAD = 4;

/**
 * `read` of each item, started up to `ahead` items before it is asked for (`at(i)`, in order).
 * A failure is thrown when its item is asked for, as reading one after the other would.
 */
function readAhead<T, R>(
	items: readonly T[],
	ahead: number,
	read: (item: T) => Promise<R>
): (i: number) => Promise<R> {
	const started: Promise<R>[] = [];
	const start = (upTo: number) => {
		for (let j = started.length; j <= Math.min(upTo, items.length - 1); j++) {
			const reading = read(items[j]);
			// Asked for later (or never, once an earlier item failed): not an unhandled rejection.
			reading.catch(() => {});
			started.push(reading);
		}
	};
	return (i) => {
		start(i + ahead);
		return started[i];
	};
}

/** Every promise's value, or the first rejection in their order (not in time). */
async function inOrder<const T extends readonly Promise<unknown>[]>(
	promises: T
): Promise<{ -readonly [K in keyof T]: Awaited<T[K]> }> {
	for (const p of promises) p.catch(() => {});
	const values: unknown[] = [];
	for (const p of promises) values.push(await p);
	return values as { -readonly [K in keyof T]: Awaited<T[K]> };
}

const EMPTY_TREE: MetricsTree = {
	lca: null,
	dcg: null,
	ljp: { direct: null, gold: null, interaction: null }
};

const EMPTY_NOTE = coded('note_empty_run', {});

/** True when no stage file of the run holds a record (eval files are read already). */
async function hasNoRecords(
	source: LayoutSource,
	records: EvalRecords,
	present: ReadonlySet<string> | undefined
): Promise<boolean> {
	if (EVAL_FILES.some((file) => (records[file]?.length ?? 0) > 0)) return false;
	for (const path of present ?? []) {
		if (path.startsWith('eval_results/')) continue;
		if ((await source.read(path)).trim() !== '') return false;
	}
	return true;
}

function groupReport(members: readonly { run: RunReport; manifest: Manifest }[]): GroupReport {
	const runs = members.map((m) => m.run);
	const all = aggregateTrees(runs.map((r) => r.metrics));
	const classes = orderClasses(
		runs.flatMap((r) => Object.keys(r.by_class)),
		members[0].manifest.categories
	);
	const notes: CoreText[] = [];
	if (new Set(members.map((m) => canonicalJson(m.manifest.categories))).size > 1) {
		notes.push(coded('note_group_maps', {}));
	}
	return {
		model: runs[0].model,
		run_ids: runs.map((r) => r.run_id),
		n: runs.length,
		mean: all.mean,
		sd: all.sd,
		by_class: Object.fromEntries(
			classes.map((cls) => [cls, aggregateTrees(runs.map((r) => r.by_class[cls] ?? EMPTY_TREE))])
		),
		n_defined: all.n_defined,
		partial: runs.some((r) => r.partial),
		notes
	};
}

/**
 * Reads every run under `source` (a manifest per `runs/<run-id>/<model>/`), checks and scores
 * its eval_results files, and groups comparable runs. Throws CheckpointError, naming file and
 * line, for a malformed manifest or record and for misaligned or duplicated cases.
 */
export async function computeReport(
	source: LayoutSource,
	options: ReportOptions = {}
): Promise<ResultsReport> {
	const modelDirs =
		options.model === undefined
			? null
			: new Set([options.model, await modelDirName(options.model)]);
	const wanted = (run: RunKey) =>
		(options.runId === undefined || run.runId === options.runId) &&
		(modelDirs === null || modelDirs.has(run.modelDir));
	const manifests: RunKey[] = [];
	const callLogs = new Set<string>();
	/** Stage files present, keyed by the manifest path of their run. */
	const stageFiles = new Map<string, Set<string>>();
	for (const path of await source.list()) {
		const parsed = parseLayoutPath(path);
		if (!parsed || !wanted(parsed.run)) continue;
		if (parsed.kind === 'manifest') {
			manifests.push(parsed.run);
			continue;
		}
		if (parsed.kind === 'calls') {
			callLogs.add(path);
			continue;
		}
		const key = manifestPath(parsed.run);
		const paths = stageFiles.get(key) ?? new Set<string>();
		paths.add(path);
		stageFiles.set(key, paths);
	}

	const warnings: CoreText[] = [];
	const manifestKeys = new Set(manifests.map(manifestPath));
	for (const [key, paths] of stageFiles) {
		if (manifestKeys.has(key)) continue;
		const files = [...paths].filter((p) => p.startsWith('eval_results/'));
		if (files.length) {
			warnings.push(
				coded('note_no_manifest', { manifest: describePath(source, key), files: files.join(', ') })
			);
		}
	}

	const bootstrap = options.bootstrap ? bootstrapSettings(options.bootstrap) : null;
	const members: { run: RunReport; manifest: Manifest }[] = [];
	const reads = readAhead(manifests, READ_AHEAD, async (run) => {
		const [manifest, records] = await inOrder([
			readManifest(source, run),
			readEvalRecords(source, run, stageFiles.get(manifestPath(run)) ?? new Set())
		] as const);
		return { manifest, records };
	});
	for (const [i, run] of manifests.entries()) {
		const { manifest, records } = await reads(i);
		const result = computeRunMetrics(manifest, records, {
			partial: options.partial,
			fileLabel: (file) => describePath(source, stageFilePath(run, file))
		});
		const stats = runStatistics(manifest, records, result.metrics, bootstrap);
		const calls = await readRunCalls(source, run, callLogs);
		const empty = await hasNoRecords(source, records, stageFiles.get(manifestPath(run)));
		const report: RunReport = {
			run_id: run.runId,
			model: manifest.models.evaluated,
			model_dir: run.modelDir,
			// Nothing to score, even with `partial`: an empty file is not a figure of n = 0.
			metrics: empty ? EMPTY_TREE : result.metrics,
			by_class: empty ? {} : withClassStatistics(result.by_class, stats.by_class),
			ci95: stats.ci95,
			counts: stats.counts,
			ljp_confusion: stats.ljp_confusion,
			power: stats.power,
			partial: empty ? false : result.partial,
			empty,
			completeness: result.completeness,
			notes: empty ? [EMPTY_NOTE] : calls.note ? [...result.notes, calls.note] : result.notes,
			calls: calls.calls
		};
		members.push({ run: report, manifest });
		options.onRun?.(report, manifest, stats.table, records);
	}
	members.sort(
		(a, b) =>
			collator.compare(a.run.run_id, b.run.run_id) || collator.compare(a.run.model, b.run.model)
	);

	// A run without records is no repetition: it would add to n while adding no figure.
	const groups = groupComparable(members.filter((m) => !m.run.empty))
		.map(groupReport)
		.sort(
			(a, b) => collator.compare(a.model, b.model) || collator.compare(a.run_ids[0], b.run_ids[0])
		);
	return {
		runs: members.map((m) => m.run),
		groups,
		partial: options.partial ?? false,
		warnings,
		bootstrap: bootstrap && { unit: 'case', method: 'percentile', level: CI_LEVEL, ...bootstrap }
	};
}

/** Each class's metrics with its statistics beside them (a class without records gets none). */
function withClassStatistics(
	byClass: Record<string, MetricsTree>,
	stats: Record<string, ScopeStatistics>
): Record<string, ClassReport> {
	return Object.fromEntries(
		Object.entries(byClass).map(([cls, tree]) => [
			cls,
			{
				...tree,
				...(stats[cls] ?? {
					ci95: null,
					counts: { cases: 0, claims: null },
					ljp_confusion: { direct: null, gold: null, interaction: null }
				})
			}
		])
	);
}

/**
 * The report as PROTOCOL.md §8 has it and `results --json` prints it: every note and warning in
 * English, everything else as it is, in the same order.
 */
export function reportJson(report: ResultsReport): unknown {
	const say = (notes: readonly CoreText[]) => notes.map((n) => english(n));
	return {
		...report,
		runs: report.runs.map((r) => ({ ...r, notes: say(r.notes) })),
		groups: report.groups.map((g) => ({ ...g, notes: say(g.notes) })),
		warnings: say(report.warnings)
	};
}

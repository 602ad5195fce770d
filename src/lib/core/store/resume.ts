/**
 * The manifest and resume rules of PROTOCOL.md §6. A run id keeps one set of inputs for good: a
 * resume keeps every saved record that still belongs to the run and regenerates only missing
 * cases; anything that no longer fits is an error, and nothing saved is ever overwritten.
 */
import { CheckpointError } from '../errors';
import { coded, type CoreText } from '../said';
import { english } from '../voice';
import { manifestPath, stageFilePath, type RunKey } from '../layout';
import { sameEndpoint } from '../names';
import { caseKey, type StageFile } from '../record-names';
import type { Manifest } from '../records';
import { OPERATIONAL_SETTINGS } from '../run-defaults';
import type { OperationalEntry } from '../run-config';
import { recordHead, type RecordHead } from './heads';
import { identitySaid, recordIdentity } from './identity';
import { assertKeyFree } from './key-free';
import { withOperationalEntry } from './manifest-file';
import type { CheckpointStore } from './types';

export { assertKeyFree } from './key-free';

/** How many problems one error lists before it summarises the rest. */
const MAX_LISTED = 20;

function show(value: unknown): string {
	if (typeof value === 'string' && /^[0-9a-f]{64}$/.test(value)) return `${value.slice(0, 12)}…`;
	return JSON.stringify(value);
}

/** How the selected cases differ: their counts, and the first position where they part. */
function selectionSaid(saved: readonly string[], wanted: readonly string[]): CoreText {
	const at = saved.findIndex((c, i) => c !== wanted[i]);
	const first = at === -1 ? Math.min(saved.length, wanted.length) : at;
	const counts = { savedCount: saved.length, nowCount: wanted.length };
	return first < Math.min(saved.length, wanted.length)
		? coded('resume_selection_at', {
				...counts,
				position: first + 1,
				saved: show(saved[first]),
				now: show(wanted[first])
			})
		: coded('resume_selection', counts);
}

/** One field in which a saved manifest and the one a run would write differ. */
export interface ManifestDifference {
	/** The manifest's path: `dataset.sha256`, `models.user`, `settings.temperature`, … */
	field: string;
	saved: unknown;
	now: unknown;
}

/**
 * Every difference between a saved manifest and the one this run would write. Each one refuses
 * a resume under the same run id. Not compared: `created_at`, `tool` (the protocol version is
 * inside `code_sha256`), `categories` (records do not depend on them; see `categoryChanges`),
 * the operational settings (`settings.timeout_s`, `settings.retries`, `operational_history`: a
 * resume may change them, PROTOCOL.md §6; see `operationalChange`) and any extra field but
 * `rejudged_from` (a re-judged run's source, compared whole). The selected
 * cases are compared as strings (PROTOCOL.md §5): a run saved with `"1001"` resumes from a dataset's
 * `1001`.
 */
export function manifestDifferences(saved: Manifest, wanted: Manifest): ManifestDifference[] {
	const diffs: ManifestDifference[] = [];
	const check = (field: string, a: unknown, b: unknown, same = a === b) => {
		if (!same) diffs.push({ field, saved: a, now: b });
	};
	check('run_id', saved.run_id, wanted.run_id);
	check('model_dir', saved.model_dir, wanted.model_dir);
	check('schema_version', saved.schema_version, wanted.schema_version);
	check('dataset.sha256', saved.dataset.sha256, wanted.dataset.sha256);
	check('dataset.n_cases', saved.dataset.n_cases, wanted.dataset.n_cases);
	const [sel, wantSel] = [
		saved.dataset.selected_case_numbers.map(caseKey),
		wanted.dataset.selected_case_numbers.map(caseKey)
	];
	const sameSelection = sel.length === wantSel.length && sel.every((c, i) => c === wantSel[i]);
	check('dataset.selected_case_numbers', sel, wantSel, sameSelection);
	for (const key of ['complete', 'underspecified'] as const) {
		check(
			`dataset.history_fields.${key}`,
			saved.dataset.history_fields[key],
			wanted.dataset.history_fields[key]
		);
	}
	check('code_sha256', saved.code_sha256, wanted.code_sha256);
	check('prompts_sha256', saved.prompts_sha256, wanted.prompts_sha256);
	for (const role of ['evaluated', 'user', 'judge'] as const) {
		check(`models.${role}`, saved.models[role], wanted.models[role]);
		const [a, b] = [saved.endpoints[role], wanted.endpoints[role]];
		check(`endpoints.${role}`, a, b, sameEndpoint(a, b));
	}
	const operational = new Set<string>(OPERATIONAL_SETTINGS);
	const settingKeys = new Set([...Object.keys(saved.settings), ...Object.keys(wanted.settings)]);
	for (const key of [...settingKeys].filter((k) => !operational.has(k))) {
		const [a, b] = [
			saved.settings as Record<string, unknown>,
			wanted.settings as Record<string, unknown>
		];
		check(`settings.${key}`, a[key], b[key]);
	}
	check('simulated', saved.simulated, wanted.simulated);
	// A re-judged run keeps its source and what it re-judges (PROTOCOL.md §6).
	const [from, wantFrom] = [saved.rejudged_from ?? null, wanted.rejudged_from ?? null];
	check('rejudged_from', from, wantFrom, JSON.stringify(from) === JSON.stringify(wantFrom));
	return diffs;
}

/**
 * `manifestDifferences` as the CLI and the engine's errors say them, one line each
 * (`settings.temperature: saved 0.7, now 0.5`).
 */
export function compareManifest(saved: Manifest, wanted: Manifest): CoreText[] {
	return manifestDifferences(saved, wanted).map((d) =>
		d.field === 'dataset.selected_case_numbers'
			? selectionSaid(d.saved as string[], d.now as string[])
			: coded('resume_difference', { field: d.field, saved: show(d.saved), now: show(d.now) })
	);
}

/**
 * A warning (or null) when the category map differs from the saved one. Categories only group
 * metrics by cause class; no record depends on them, so a changed map does not block a resume.
 * The saved manifest keeps the map it was created with.
 */
export function categoryChanges(saved: Manifest, wanted: Manifest): CoreText | null {
	const causes = new Set([...Object.keys(saved.categories), ...Object.keys(wanted.categories)]);
	const changed = [...causes].filter((c) => saved.categories[c] !== wanted.categories[c]);
	if (changed.length === 0) return null;
	const c = changed[0];
	return coded('category_map_changed', {
		count: changed.length,
		cause: c,
		saved: show(saved.categories[c] ?? null),
		now: show(wanted.categories[c] ?? null)
	});
}

/** Timeout, retries and concurrency of a run; concurrency is null when never recorded. */
export interface OperationalValues {
	timeout_s: number;
	retries: number;
	concurrency: number | null;
}

/** The operational values in force for a saved run: its history's last entry, else its settings. */
export function operationalInForce(m: Manifest): OperationalValues {
	const last = m.operational_history?.at(-1);
	if (last)
		return { timeout_s: last.timeout_s, retries: last.retries, concurrency: last.concurrency };
	return { timeout_s: m.settings.timeout_s, retries: m.settings.retries, concurrency: null };
}

/**
 * The entry a resume adds to the saved manifest's `operational_history`, or null when the
 * values `wanted` brings (its own history's last entry, else its settings) are the ones in
 * force. A concurrency the saved manifest never recorded is not a change by itself.
 */
export function operationalChange(saved: Manifest, wanted: Manifest): OperationalEntry | null {
	const now = operationalInForce(wanted);
	const before = operationalInForce(saved);
	const changed =
		now.timeout_s !== before.timeout_s ||
		now.retries !== before.retries ||
		(before.concurrency !== null && now.concurrency !== before.concurrency);
	if (!changed || now.concurrency === null) return null;
	const at = wanted.operational_history?.at(-1)?.at ?? new Date().toISOString();
	return { at, timeout_s: now.timeout_s, retries: now.retries, concurrency: now.concurrency };
}

export interface OpenRunResult {
	/** True when this call wrote the manifest (a new run); false when it resumes. */
	created: boolean;
	/** The manifest in force: the saved one on resume (with this resume's operational entry). */
	manifest: Manifest;
	/** Things worth telling the user that do not stop the run (a changed category map), in English. */
	warnings: string[];
	/** The same as codes, one each. */
	warningsSaid: CoreText[];
}

export interface OpenRunOptions {
	/** API keys in use; the manifest is refused if it contains one (defence in depth). */
	keys?: Iterable<string>;
}

/**
 * Starts or resumes a run: writes `manifest` when the run has none, else checks it against the
 * saved one and throws `CheckpointError` listing every difference. Changed operational values
 * (timeout, retries, concurrency) never refuse: they are appended to the saved manifest's
 * `operational_history`. Call it with the run's lock held.
 */
export async function openRun(
	store: CheckpointStore,
	manifest: Manifest,
	options: OpenRunOptions = {}
): Promise<OpenRunResult> {
	assertKeyFree(manifest, options.keys ?? [], coded('key_free_manifest', {}));
	const run: RunKey = { runId: manifest.run_id, modelDir: manifest.model_dir };
	const saved = await store.readManifest(run);
	if (saved === null) {
		await store.createManifest(manifest);
		return { created: true, manifest, warnings: [], warningsSaid: [] };
	}
	const diffs = compareManifest(saved, manifest);
	if (diffs.length > 0) {
		throw new CheckpointError([
			coded(
				saved.rejudged_from ? 'resume_different_inputs_rejudged' : 'resume_different_inputs',
				{ manifest: manifestPath(run), run: run.runId },
				{ lines: diffs }
			)
		]);
	}
	const warning = categoryChanges(saved, manifest);
	const change = operationalChange(saved, manifest);
	if (change) await store.recordOperational(run, change);
	return {
		created: false,
		manifest: change ? withOperationalEntry(saved, change) : saved,
		warnings: warning ? [english(warning)] : [],
		warningsSaid: warning ? [warning] : []
	};
}

/** What a resume keeps of one stage file. */
export interface Checkpoint<F extends StageFile> {
	/** Heads of the saved records that still belong to the run, by identity. */
	kept: Map<string, RecordHead<F>>;
	/** Identities with no saved record, in dataset order. */
	missing: string[];
}

/** The records a stage would write, and the `input_sha256` each must have now. */
export interface ExpectedRecords {
	/** Identities (`recordIdentity`) of every record the stage would write, in dataset order. */
	identities: readonly string[];
	/**
	 * The `input_sha256` a saved record with this identity must have. Asked only for records that
	 * are saved, so a stage that starts from an empty file hashes nothing.
	 */
	inputSha256(identity: string): Promise<string>;
}

/** Heads of a stage file: the store's own when it keeps them, else made from its records. */
export async function readHeads<F extends StageFile>(
	store: CheckpointStore,
	run: RunKey,
	file: F
): Promise<RecordHead<F>[]> {
	if (store.readHeads) return (await store.readHeads(run, file)) as RecordHead<F>[];
	const records = await store.readRecords(run, file);
	return Promise.all(records.map((record) => recordHead(file, record)));
}

/**
 * Reads a stage file's heads and sorts them into kept and missing. `expected` names every record
 * the stage would write and the `input_sha256` it would have now (a map identity → hash will do).
 * Throws `CheckpointError` listing every saved record that does not fit: one made from other
 * inputs, one for a case that is not selected, a duplicate.
 */
export async function loadCheckpoint<F extends StageFile>(
	store: CheckpointStore,
	run: RunKey,
	file: F,
	expected: ExpectedRecords | ReadonlyMap<string, string>
): Promise<Checkpoint<F>> {
	const want: ExpectedRecords =
		expected instanceof Map
			? { identities: [...expected.keys()], inputSha256: async (id) => expected.get(id)! }
			: (expected as ExpectedRecords);
	const label = stageFilePath(run, file);
	const heads = await readHeads(store, run, file);
	const selected = new Set(want.identities);
	const firstLine = new Map<string, number>();
	const lines = heads.map((head, i) => {
		const identity = recordIdentity(file, head.record);
		const seenAt = firstLine.get(identity);
		firstLine.set(identity, seenAt ?? i + 1);
		return { head, identity, line: i + 1, seenAt };
	});
	// Hashes of every saved, selected record at once: each is its own SHA-256 call.
	const hashes = await Promise.all(
		lines.map(({ identity, seenAt }) =>
			seenAt === undefined && selected.has(identity) ? want.inputSha256(identity) : null
		)
	);
	const kept = new Map<string, RecordHead<F>>();
	const problems: CoreText[] = [];
	lines.forEach(({ head, identity, line, seenAt }, i) => {
		const record = { record: [identitySaid(identity)] };
		const saved = head.record.input_sha256 as string;
		if (seenAt !== undefined) {
			problems.push(coded('checkpoint_saved_twice', { line, first: seenAt }, record));
		} else if (!selected.has(identity)) {
			problems.push(coded('checkpoint_not_selected', { line }, record));
		} else if (saved !== hashes[i]) {
			problems.push(
				coded('checkpoint_other_inputs', { line, saved: show(saved), now: show(hashes[i]) }, record)
			);
		} else {
			kept.set(identity, head);
		}
	});
	if (problems.length > 0) {
		const listed = problems.slice(0, MAX_LISTED);
		if (problems.length > MAX_LISTED) {
			listed.push(coded('checkpoint_more', { count: problems.length - MAX_LISTED }));
		}
		throw new CheckpointError([
			coded('checkpoint_unfit', { file: label, count: problems.length }, { lines: listed })
		]);
	}
	const missing = want.identities.filter((identity) => !kept.has(identity));
	return { kept, missing };
}

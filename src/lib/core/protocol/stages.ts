/**
 * The stages of PROTOCOL.md §4 declared once, one row each: the engine, the CLI, the estimates,
 * the stores and the pages take every list and map of stages from here. No zod (pages load it
 * on their first visit); the files themselves (folder, name, records per case) are the rows of
 * `STAGE_PATHS` in `../record-names.ts`.
 */
import type { Role, StageFile } from '../record-names';

/** Clarification questions the evaluated model may ask in gen's interaction before its answer is forced. */
export const QUESTION_BUDGET = 3;

/** Calls per case of one role: equal bounds where a stage's calls do not depend on the answers. */
export interface CallRange {
	min: number;
	max: number;
}

/** The paper's three LJP setups (PROTOCOL.md §4.3–4.5): where the predicted response comes from. */
export type LjpSetup = 'direct' | 'gold' | 'interaction';

export interface StageRow {
	/** The stage's name: its CLI command, its `--stages` entry, the call log's `stage`. */
	name: string;
	/** Further `--stages` entries and CLI commands that name this stage with others. */
	aliases: readonly string[];
	/** The files the stage writes, in the order a case's records are appended. */
	writes: readonly StageFile[];
	/**
	 * The files of another stage its resume check reads (and a seal covers), besides its own;
	 * `upstream` writes them.
	 */
	reads: readonly StageFile[];
	/** The stage whose files it reads, or null. */
	upstream: string | null;
	/** The eval_results file its judge calls fill. */
	evalFile: StageFile;
	/** Its setup when it is an LJP stage, else null. */
	ljpSetup: LjpSetup | null;
	/** Run by `runAll` (the CLI's `run`, the Run form) when no stages are named. */
	runAll: boolean;
	/** Model calls one case makes, by role, retries and re-asked judges aside (see `STAGES`). */
	calls: Readonly<Record<Role, CallRange>>;
}

const r = (min: number, max = min): CallRange => ({ min, max });

/**
 * The stage of an LJP setup: `ljp-<setup>`, one of the alias `ljp`, judged into `LJP_<setup>`
 * with one extraction call; it makes `n` forced predictions of its own (evaluated calls), and
 * reads gen's files when `reads` names them.
 */
const ljp = <S extends LjpSetup>(setup: S, writes: StageFile[], reads: StageFile[], n: number) =>
	({
		name: `ljp-${setup}`,
		aliases: ['ljp'],
		writes,
		reads,
		upstream: reads.length > 0 ? 'gen' : null,
		evalFile: `LJP_${setup}`,
		ljpSetup: setup,
		runAll: true,
		calls: { evaluated: r(n), user: r(0), judge: r(1) }
	}) as const;

/**
 * Every stage, in protocol order (the order stages are listed, run one after another and
 * estimated). Calls per case, from the stage code (`../engine/stages/`):
 * - gen: a1 on both histories (2 evaluated) and an LCA label on each (2 judge). The interaction
 *   continues from the underspecified a1: a judgment ends it at once (the minimum, 4 calls);
 *   each clarification gets a user reply, and in rounds 1 to `QUESTION_BUDGET − 1` a new
 *   response labelled by the LCA judge; a clarification in the last round gets its reply, then
 *   one forced prediction. So at most 2 + (Q − 1) + 1 evaluated, Q user and 2 + (Q − 1) judge
 *   calls: 12 with Q = 3.
 * - lca: one LCA label per history, nothing generated.
 * - dcg: two forced questions with a user reply between them, one DCG label per question.
 * - ljp-direct, ljp-gold: one dedicated forced prediction, one verdict extraction.
 * - ljp-interaction: one extraction from the interaction's final response.
 * `priorCalls` (the ETA before a stage's cases have shown their real count) and the Run form's
 * estimate both read these bounds; `protocol.spec.ts` runs the stage code against them.
 */
export const STAGES = [
	{
		name: 'gen',
		aliases: [],
		writes: ['a1', 'LCA_results', 'interaction'],
		reads: [],
		upstream: null,
		evalFile: 'LCA_results',
		ljpSetup: null,
		runAll: true,
		calls: {
			evaluated: r(2, 2 + (QUESTION_BUDGET - 1) + 1),
			user: r(0, QUESTION_BUDGET),
			judge: r(2, 2 + (QUESTION_BUDGET - 1))
		}
	},
	{
		// Re-judging saved a1 responses (PROTOCOL.md §8 `lca` command); `runAll` refuses it beside gen.
		name: 'lca',
		aliases: [],
		writes: ['LCA_results'],
		reads: ['a1'],
		upstream: 'gen',
		evalFile: 'LCA_results',
		ljpSetup: null,
		runAll: false,
		calls: { evaluated: r(0), user: r(0), judge: r(2) }
	},
	{
		name: 'dcg',
		aliases: [],
		writes: ['force_ask', 'DCG_results'],
		reads: [],
		upstream: null,
		evalFile: 'DCG_results',
		ljpSetup: null,
		runAll: true,
		calls: { evaluated: r(2), user: r(1), judge: r(2) }
	},
	ljp('direct', ['a1_direct', 'LJP_direct'], [], 1),
	ljp('gold', ['a1_force_judge', 'LJP_gold'], [], 1),
	ljp('interaction', ['LJP_interaction'], ['a1', 'LCA_results', 'interaction'], 0)
] as const satisfies readonly StageRow[];

type Row = (typeof STAGES)[number];
export type StageName = Row['name'];

/** Every stage's name, in protocol order. */
export const STAGE_NAMES = STAGES.map((s) => s.name) as readonly StageName[] as readonly [
	StageName,
	...StageName[]
];

const BY_NAME = new Map<string, StageRow>(STAGES.map((s) => [s.name, s]));

/** The row of `stage`. */
export function stageRow(stage: StageName): StageRow {
	return BY_NAME.get(stage)!;
}

const perStage = <T>(value: (row: StageRow) => T) =>
	Object.fromEntries(STAGES.map((s) => [s.name, value(s)])) as Record<StageName, T>;

/** What `runAll` runs when no stages are named: every stage that writes new records. */
export const RUN_ALL_STAGES: readonly StageName[] = STAGE_NAMES.filter((s) => stageRow(s).runAll);

/** The files each stage writes, in the order a case's records are appended. */
export const STAGE_OUTPUTS: Record<StageName, readonly StageFile[]> = perStage((s) => s.writes);

/** The stage whose files a stage reads; dcg, ljp-direct and ljp-gold read none. */
export const UPSTREAM: Partial<Record<StageName, StageName>> = Object.fromEntries(
	STAGES.flatMap((s) => (s.upstream === null ? [] : [[s.name, s.upstream]]))
);

/**
 * The files whose records a stage's resume check reads: those of the stage it builds on, then
 * its own. A seal holds all of them, so a changed upstream file voids the seals of the stages
 * that read it.
 */
export const SEALED_FILES: Record<StageName, readonly StageFile[]> = perStage((s) => [
	...s.reads.filter((f) => !s.writes.includes(f)),
	...s.writes
]);

/** Model calls per case of each stage, by role. */
export const CALLS_PER_CASE: Record<StageName, Readonly<Record<Role, CallRange>>> = perStage(
	(s) => s.calls
);

/**
 * Calls one case of `stage` is taken to make before three of its cases have shown the real
 * count: the middle of its bounds (gen: 8, between a judgment at once and the forced answer).
 */
export function priorCalls(stage: StageName): number {
	return Object.values(stageRow(stage).calls).reduce((sum, c) => sum + (c.min + c.max) / 2, 0);
}

/** The CLI's names for several stages at once (`ljp`: the three LJP stages), in protocol order. */
export type StageAlias = Row['aliases'][number];
const aliases: Partial<Record<StageAlias, StageName[]>> = {};
for (const s of STAGES) for (const alias of s.aliases) (aliases[alias] ??= []).push(s.name);
export const STAGE_ALIASES = aliases as Readonly<Record<StageAlias, readonly StageName[]>>;

/** The stages `name` stands for (a stage or an alias), or null for an unknown name. */
export function stagesNamed(name: string): readonly StageName[] | null {
	if (Object.hasOwn(STAGE_ALIASES, name)) return STAGE_ALIASES[name as StageAlias];
	return BY_NAME.has(name) ? [name as StageName] : null;
}

type LjpRow = Extract<Row, { ljpSetup: LjpSetup }>;
const LJP_ROWS = STAGES.filter((s): s is LjpRow => s.ljpSetup !== null);

/** The LJP setups, in protocol order. */
export const LJP_SETUPS: readonly LjpSetup[] = LJP_ROWS.map((s) => s.ljpSetup);

/** The eval file of an LJP setup. */
export type LjpFile = LjpRow['evalFile'];
export const LJP_FILE = Object.fromEntries(LJP_ROWS.map((s) => [s.ljpSetup, s.evalFile])) as Record<
	LjpSetup,
	LjpFile
>;

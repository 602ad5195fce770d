/**
 * The names of the canonical layout (PROTOCOL.md §5) without the record schemas (`records.ts`, which
 * re-exports all of this): stage files and their folders, roles, how case numbers compare.
 * Pages that only name files or roles import this and so do not load zod on their first visit.
 */

/**
 * The string form a case number is compared by: `1001` and `"1001"` name the same case. It takes
 * any `CaseNumber` of `records.ts` (a string or an integer), which imports this module, not the
 * other way round.
 */
export function caseKey(caseNumber: string | number): string {
	return String(caseNumber);
}

/**
 * Every JSONL file of the canonical layout with its folder and the records a case has in it
 * (a1 and LCA: one per history); `records.ts` adds each schema, `protocol/` the stages that
 * write them.
 */
export const STAGE_PATHS = {
	a1: { dir: 'AwN_gen', file: 'a1.jsonl', perCase: 2 },
	interaction: { dir: 'AwN_gen', file: 'interaction.jsonl', perCase: 1 },
	force_ask: { dir: 'Force_ask_gen', file: 'force_ask.jsonl', perCase: 1 },
	a1_direct: { dir: 'Force_judge_gen', file: 'a1_direct.jsonl', perCase: 1 },
	a1_force_judge: { dir: 'Force_judge_gen', file: 'a1_force_judge.jsonl', perCase: 1 },
	LCA_results: { dir: 'eval_results', file: 'LCA_results.jsonl', perCase: 2 },
	DCG_results: { dir: 'eval_results', file: 'DCG_results.jsonl', perCase: 1 },
	LJP_direct: { dir: 'eval_results', file: 'LJP_direct.jsonl', perCase: 1 },
	LJP_gold: { dir: 'eval_results', file: 'LJP_gold.jsonl', perCase: 1 },
	LJP_interaction: { dir: 'eval_results', file: 'LJP_interaction.jsonl', perCase: 1 }
} as const;
export type StageFile = keyof typeof STAGE_PATHS;
export const STAGE_FILE_NAMES = Object.keys(STAGE_PATHS) as StageFile[];

export const ROLES = ['evaluated', 'user', 'judge'] as const;
export type Role = (typeof ROLES)[number];

/** A record with one value per role, `make(role)` each. */
export const perRole = <T>(make: (role: Role) => T) =>
	Object.fromEntries(ROLES.map((r) => [r, make(r)])) as Record<Role, T>;

export const MANIFEST_SCHEMA_VERSION = 1;

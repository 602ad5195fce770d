/**
 * `run --plan FILE`: a run plan as JSON (docs/CLI.md "Run plans"). It names the evaluated models,
 * each optionally with its own base URL and the environment variable holding its key, the user
 * model and judge (the plan's, or a model's own), the run id (prefix) and the repetitions. A key
 * is never written in the file: a field that would hold one is refused, naming its place.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { z } from 'zod';
import { PLAN_MAX_MODELS } from '../../lib/core/engine/plan';
import { UsageError } from '../../lib/core/errors';
import { SETTING_LIMITS } from '../../lib/core/run-config';
import { escapeControl } from '../../lib/core/text/escape-control';

/** A plan file is a few models; anything near this is not one. */
const MAX_PLAN_BYTES = 256 * 1024;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;
const KEY_FIELDS = new Set(['api_key', 'apiKey', 'key', 'token', 'OPENAI_API_KEY']);

const text = (max: number) => z.string().trim().min(1).max(max);

/** A role's model, endpoint and the variable its key is read from. */
const RoleEntry = z.strictObject({
	model: text(200),
	/** http(s) base URL; default: the role's endpoint from the environment. */
	base_url: text(2000).optional(),
	/** Environment variable holding the key; default: the role's key from the environment. */
	api_key_env: z.string().regex(ENV_NAME, 'must be an environment variable name').optional()
});

const ModelEntry = z.union([
	text(200),
	RoleEntry.extend({ user: RoleEntry.optional(), judge: RoleEntry.optional() })
]);

const { min, max } = SETTING_LIMITS.repetitions;
export const PlanFile = z.strictObject({
	/** The run id, or with `repetitions` the prefix of the run ids. */
	run_id: text(64).optional(),
	repetitions: z.number().int().min(min).max(max).optional(),
	models: z.array(ModelEntry).min(1).max(PLAN_MAX_MODELS),
	user: RoleEntry.optional(),
	judge: RoleEntry.optional()
});
export type PlanFile = z.infer<typeof PlanFile>;
export type PlanRoleEntry = z.infer<typeof RoleEntry>;

/** Reads and checks `--plan FILE` (relative to `cwd`); every problem names the file and field. */
export async function readPlanFile(label: string, cwd: string): Promise<PlanFile> {
	const where = `--plan ${escapeControl(label)}`;
	let raw: string;
	try {
		const bytes = await readFile(resolve(cwd, label));
		if (bytes.byteLength > MAX_PLAN_BYTES) {
			throw new UsageError(
				`${where}: the file is over ${MAX_PLAN_BYTES / 1024} KB; a plan is a few models`
			);
		}
		raw = bytes.toString('utf8');
	} catch (e) {
		if (e instanceof UsageError) throw e;
		throw new UsageError(`${where}: cannot read the file (${escapeControl((e as Error).message)})`);
	}
	let json: unknown;
	try {
		json = JSON.parse(raw);
	} catch (e) {
		throw new UsageError(`${where}: not JSON (${escapeControl((e as Error).message)})`);
	}
	const keyAt = keyField(json, []);
	if (keyAt) {
		throw new UsageError(
			`${where}: ${keyAt}: keys are never written in a plan file; name the environment variable ` +
				'that holds the key in "api_key_env" instead'
		);
	}
	const parsed = PlanFile.safeParse(json);
	if (!parsed.success) {
		const issue = parsed.error.issues[0];
		const field = issue.path.length ? fieldPath(issue.path) : 'the plan';
		throw new UsageError(`${where}: ${escapeControl(field)}: ${escapeControl(issue.message)}`);
	}
	return parsed.data;
}

/** `models[1].base_url`: a zod path as a reader of the file names the place. */
export function fieldPath(path: readonly PropertyKey[]): string {
	return path
		.map((p, i) => (typeof p === 'number' ? `[${p}]` : `${i === 0 ? '' : '.'}${String(p)}`))
		.join('');
}

/** The place of the first field named like a key (`api_key`…), anywhere in the file. */
function keyField(value: unknown, path: PropertyKey[]): string | null {
	// Deeper than any plan: the schema refuses it anyway (and a hostile file cannot blow the stack).
	if (path.length > 8) return null;
	if (Array.isArray(value)) {
		for (const [i, item] of value.entries()) {
			const found = keyField(item, [...path, i]);
			if (found) return found;
		}
	} else if (value !== null && typeof value === 'object') {
		for (const [name, item] of Object.entries(value)) {
			if (KEY_FIELDS.has(name)) return fieldPath([...path, name]);
			const found = keyField(item, [...path, name]);
			if (found) return found;
		}
	}
	return null;
}

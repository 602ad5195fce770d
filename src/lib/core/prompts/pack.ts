/**
 * The prompt pack (PROTOCOL.md §2): seven named Chinese templates with `{slot}` placeholders.
 * Which slots a template may use is fixed (`slots.ts`, re-exported here), not by the pack, because it is what keeps
 * the roles isolated: a pack that put `{key_details}` into `lexawn` would leak hidden facts
 * to the evaluated model, so such a pack is refused on import.
 */
import { z } from 'zod';
import { UsageError } from '../errors';
import { coded, type CoreText } from '../said';
import { english } from '../voice';
import { stripBom } from '../text';
import { TEMPLATE_NAMES, templateProblemsSaid, type TemplateName } from './slots';

export * from './slots';
export { exportPromptPack } from './pack-json';

export const PromptPack = z
	.object({
		/** Shown in the UI and manifests' exports; part of the hash. */
		name: z.string().trim().min(1, 'name must not be empty'),
		version: z.string().trim().min(1, 'version must not be empty'),
		templates: z.strictObject(
			Object.fromEntries(
				TEMPLATE_NAMES.map((n) => [n, z.string().trim().min(1, `template "${n}" is empty`)])
			) as Record<TemplateName, z.ZodString>
		)
	})
	.superRefine((pack, ctx) => {
		for (const name of TEMPLATE_NAMES) {
			for (const said of templateProblemsSaid(name, pack.templates[name])) {
				ctx.addIssue({
					code: 'custom',
					path: ['templates', name],
					message: english(said),
					params: { said }
				});
			}
		}
	});
export type PromptPack = z.infer<typeof PromptPack>;

/** Every problem of a candidate pack, one readable line each; empty when it is valid. */
export function promptPackProblems(value: unknown): string[] {
	return promptPackProblemsSaid(value).map((said) => english(said));
}

/** {@link promptPackProblems} as codes, for the interface language. */
export function promptPackProblemsSaid(value: unknown): CoreText[] {
	const parsed = PromptPack.safeParse(value);
	if (parsed.success) return [];
	return parsed.error.issues.map((issue) => {
		const said = issue.code === 'custom' ? (issue.params?.said as CoreText | undefined) : undefined;
		return said ?? shapeProblem(issue);
	});
}

/**
 * One problem of the pack's shape: coded where this check says it (an empty name, version or
 * template, a template unknown or missing); any other is the schema's own words at its field.
 */
function shapeProblem(issue: z.core.$ZodIssue): CoreText {
	const where = issue.path.length ? issue.path.join('.') : 'pack';
	const [field, template] = issue.path.map(String);
	if (issue.code === 'unrecognized_keys') {
		const names = issue.keys.join(', ');
		return coded('pack_unknown_templates', { where, names, templates: TEMPLATE_NAMES.join(', ') });
	}
	if (issue.code === 'invalid_type' && issue.path.length === 2) {
		return coded('pack_template_missing', { template });
	}
	if (issue.code === 'too_small' && issue.path.length === 1) {
		if (field === 'name') return coded('pack_name_empty', {});
		if (field === 'version') return coded('pack_version_empty', {});
	}
	if (issue.code === 'too_small' && issue.path.length === 2 && field === 'templates') {
		return coded('pack_template_blank', { template });
	}
	return coded('prompt_pack_problem', { problem: `${where}: ${issue.message}` });
}

/** Reads an imported pack (JSON text); every problem is reported at once as a `UsageError`. */
export function parsePromptPack(text: string): PromptPack {
	let value: unknown;
	try {
		value = JSON.parse(stripBom(text));
	} catch (e) {
		throw new UsageError([coded('prompt_pack_not_json', { detail: (e as Error).message })]);
	}
	const problems = promptPackProblemsSaid(value);
	if (problems.length > 0) {
		throw new UsageError([coded('prompt_pack_invalid', {}, { lines: problems })]);
	}
	return PromptPack.parse(value);
}

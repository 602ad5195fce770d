/**
 * The prompt pack (SPEC §2): seven named Chinese templates with `{slot}` placeholders.
 * Which slots a template may use is fixed here, not by the pack, because it is what keeps
 * the roles isolated: a pack that put `{key_details}` into `lexawn` would leak hidden facts
 * to the evaluated model, so such a pack is refused on import.
 */
import { z } from 'zod';
import { UsageError } from '../errors';
import { stripBom } from '../text';

export const TEMPLATE_NAMES = [
	'lexawn',
	'force_ask',
	'force_judge',
	'user_standard',
	'judge_lca',
	'judge_dcg',
	'judge_extract'
] as const;
export type TemplateName = (typeof TEMPLATE_NAMES)[number];

/** Every value a template can receive. */
export type SlotName =
	'history' | 'key_details' | 'focal_points' | 'question' | 'response' | 'claims';

/**
 * Slots per template: `required` must appear in the template, `optional` may. Any other
 * slot is refused. The engine supplies every allowed slot of the template it fills.
 */
export const TEMPLATE_SLOTS: Record<TemplateName, { required: SlotName[]; optional: SlotName[] }> =
	{
		lexawn: { required: ['history'], optional: [] },
		force_ask: { required: ['history'], optional: [] },
		force_judge: { required: ['history'], optional: [] },
		user_standard: { required: ['key_details', 'question'], optional: ['history'] },
		judge_lca: { required: ['response'], optional: [] },
		judge_dcg: { required: ['question', 'focal_points', 'key_details'], optional: [] },
		judge_extract: { required: ['claims', 'response'], optional: [] }
	};

/**
 * A slot is `{` + a lowercase identifier + `}`. JSON examples inside templates
 * (`{"label": "澄清"}`) therefore never look like slots.
 */
export const SLOT_PATTERN = /\{([a-z_][a-z0-9_]*)\}/g;

/** Where SPEC §2 puts the rendered history in every prompt that has one. */
export const HISTORY_SLOT = '<对话历史>{history}</对话历史>';

/** The slot names a template text uses, in order of first appearance. */
export function slotsOf(template: string): string[] {
	return [...new Set([...template.matchAll(SLOT_PATTERN)].map((m) => m[1]))];
}

/** Problems of one template's slots, each a readable sentence naming the template. */
export function templateProblems(name: TemplateName, template: string): string[] {
	const { required, optional } = TEMPLATE_SLOTS[name];
	const allowed = new Set<string>([...required, ...optional]);
	const used = slotsOf(template);
	const list = (slots: string[]) => slots.map((s) => `{${s}}`).join(', ');
	const problems: string[] = [];
	for (const slot of used) {
		if (!allowed.has(slot)) {
			problems.push(
				`template "${name}": unknown slot {${slot}}; this template may use only ${list([...allowed])}`
			);
		}
	}
	for (const slot of required) {
		if (!used.includes(slot)) {
			problems.push(`template "${name}": missing slot {${slot}} (required: ${list(required)})`);
		}
	}
	if (used.includes('history') && !template.includes(HISTORY_SLOT)) {
		problems.push(`template "${name}": {history} must sit inside ${HISTORY_SLOT} (SPEC §2)`);
	}
	return problems;
}

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
			for (const message of templateProblems(name, pack.templates[name])) {
				ctx.addIssue({ code: 'custom', path: ['templates', name], message });
			}
		}
	});
export type PromptPack = z.infer<typeof PromptPack>;

/** Every problem of a candidate pack, one readable line each; empty when it is valid. */
export function promptPackProblems(value: unknown): string[] {
	const parsed = PromptPack.safeParse(value);
	if (parsed.success) return [];
	return parsed.error.issues.map((issue) => {
		if (issue.code === 'custom') return issue.message;
		const where = issue.path.length ? issue.path.join('.') : 'pack';
		if (issue.code === 'unrecognized_keys') {
			return `${where}: unknown template(s) ${issue.keys.join(', ')}; the templates are ${TEMPLATE_NAMES.join(', ')}`;
		}
		if (issue.code === 'invalid_type' && issue.path.length === 2) {
			return `template "${String(issue.path[1])}" is missing or not a string`;
		}
		return `${where}: ${issue.message}`;
	});
}

/** Reads an imported pack (JSON text); every problem is reported at once as a `UsageError`. */
export function parsePromptPack(text: string): PromptPack {
	let value: unknown;
	try {
		value = JSON.parse(stripBom(text));
	} catch (e) {
		throw new UsageError(`prompt pack: not valid JSON (${(e as Error).message})`);
	}
	const problems = promptPackProblems(value);
	if (problems.length > 0) {
		throw new UsageError(`prompt pack is invalid:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
	}
	return PromptPack.parse(value);
}

/** The pack as pretty JSON for export; `parsePromptPack` reads it back unchanged. */
export function exportPromptPack(pack: PromptPack): string {
	return `${JSON.stringify(pack, null, '\t')}\n`;
}

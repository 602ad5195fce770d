/**
 * The seven templates and the slots each may use (PROTOCOL.md §2), without the pack's schema
 * (`pack.ts`, which re-exports all of this), for pages that only show or check templates and
 * so do not load zod on their first visit.
 */
import { coded, type CoreText } from '../said';
import { english } from '../voice';

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

/** Where PROTOCOL.md §2 puts the rendered history in every prompt that has one. */
export const HISTORY_SLOT = '<对话历史>{history}</对话历史>';

/** The slot names a template text uses, in order of first appearance. */
export function slotsOf(template: string): string[] {
	return [...new Set([...template.matchAll(SLOT_PATTERN)].map((m) => m[1]))];
}

/** Problems of one template's slots, each a readable sentence naming the template. */
export function templateProblems(name: TemplateName, template: string): string[] {
	return templateProblemsSaid(name, template).map((said) => english(said));
}

/** {@link templateProblems} as codes (`../said.ts`), for the interface language. */
export function templateProblemsSaid(name: TemplateName, template: string): CoreText[] {
	const { required, optional } = TEMPLATE_SLOTS[name];
	const allowed = new Set<string>([...required, ...optional]);
	const used = slotsOf(template);
	const list = (slots: string[]) => slots.map((s) => `{${s}}`).join(', ');
	const problems: CoreText[] = [];
	for (const slot of used) {
		if (!allowed.has(slot)) {
			problems.push(
				coded('template_unknown_slot', { template: name, slot, allowed: list([...allowed]) })
			);
		}
	}
	for (const slot of required) {
		if (!used.includes(slot)) {
			problems.push(
				coded('template_missing_slot', { template: name, slot, required: list(required) })
			);
		}
	}
	if (used.includes('history') && !template.includes(HISTORY_SLOT)) {
		problems.push(coded('template_history_outside', { template: name, historySlot: HISTORY_SLOT }));
	}
	return problems;
}

/** Filling a template: one pass, every slot it uses must get a value. */
import { UsageError } from '../errors';
import { coded } from '../said';
import {
	SLOT_PATTERN,
	TEMPLATE_NAMES,
	TEMPLATE_SLOTS,
	type SlotName,
	type TemplateName
} from './slots';
import type { PromptPack } from './pack';
import { escapeRegex, neutraliserFor } from './fences';

/** The values a template may receive; a template may leave out its optional slots. */
export type SlotValues = Partial<Record<SlotName, string>>;

/**
 * Fills `name` from `pack`. Substitution is a single pass, so a value that itself contains
 * `{history}` (a user quoting a template, say) is inserted literally, never re-expanded. Every
 * value first loses what could open or close one of the template's own fences (`fences.ts`):
 * a value without such text is inserted byte for byte.
 * A slot the template may not use, or one without a value, throws a `UsageError` naming the
 * template, so a broken pack fails before any model call.
 */
export function fillTemplate(pack: PromptPack, name: TemplateName, values: SlotValues): string {
	const { required, optional } = TEMPLATE_SLOTS[name];
	const allowed = new Set<string>([...required, ...optional]);
	const template = pack.templates[name];
	const neutralise = neutraliserFor(template);
	return template.replace(SLOT_PATTERN, (_match, slot: string) => {
		const where = { pack: pack.name, template: name, slot };
		if (!allowed.has(slot)) throw new UsageError([coded('fill_unknown_slot', where)]);
		const value = values[slot as SlotName];
		if (value === undefined) throw new UsageError([coded('fill_no_value', where)]);
		return neutralise(value);
	});
}

/** Claims as the numbered list the extraction judge sees: `1. …` lines, in file order. */
export function claimsText(claims: readonly string[]): string {
	return claims.map((c, i) => `${i + 1}. ${c}`).join('\n');
}

/**
 * Reads a filled prompt back into its template and slot values, by matching the whole
 * template with each slot as a wildcard. Used where only the prompt text travels (the
 * simulated provider, a fake HTTP server in tests); null when no template of `pack` matches.
 */
export function parseFilledPrompt(
	prompt: string,
	pack: PromptPack
): { task: TemplateName; values: SlotValues } | null {
	for (const name of TEMPLATE_NAMES) {
		const { regex, slots } = templateMatcher(pack.templates[name]);
		const match = regex.exec(prompt);
		if (!match) continue;
		const values: SlotValues = {};
		slots.forEach((slot, i) => {
			values[slot as SlotName] ??= match[i + 1];
		});
		return { task: name, values };
	}
	return null;
}

/** Which template produced a filled prompt (see `parseFilledPrompt`). */
export function taskOfPrompt(prompt: string, pack: PromptPack): TemplateName | null {
	return parseFilledPrompt(prompt, pack)?.task ?? null;
}

const matchers = new Map<string, { regex: RegExp; slots: string[] }>();

function templateMatcher(template: string): { regex: RegExp; slots: string[] } {
	let cached = matchers.get(template);
	if (!cached) {
		const slots: string[] = [];
		let source = '';
		let last = 0;
		for (const m of template.matchAll(SLOT_PATTERN)) {
			source += escapeRegex(template.slice(last, m.index)) + '([\\s\\S]*?)';
			slots.push(m[1]);
			last = m.index + m[0].length;
		}
		source += escapeRegex(template.slice(last));
		cached = { regex: new RegExp(`^${source}$`), slots };
		matchers.set(template, cached);
	}
	return cached;
}

/**
 * The core's texts in the interface language. The core gives each problem and error a code and
 * its parameters (`$lib/core/said`); this says them through the catalogue's messages
 * `core_<code>` (messages/core/) as Paraglide compiles them (`./core-messages.ts`), walked by the
 * core's own `sayWith` (`$lib/core/voice`) so lists and places are put together as in English.
 * Anything without a code is shown as the core wrote it (English). In English itself the page
 * shows the core's own sentence, made from the same catalogue, the one the CLI prints. Parameters
 * were escaped by the core; the parts of a place this adds (case_number, field name) are escaped
 * here the same way, and Svelte prints all of it as text. The page loads this module only for
 * another language (`$lib/state/core-text.svelte`).
 */
import type { DatasetProblem } from '$lib/core/dataset/problems';
import type { CoreCode, CoreText } from '$lib/core/said';
import { escapeControl } from '$lib/core/text/escape-control';
import { baseLocale, getLocale } from '$lib/paraglide/runtime';
import { roleName } from './role-names';
import { localList } from './local-format';
import { VERDICTS } from '$lib/core/dataset/names';
import { CORE_MESSAGES } from './core-messages';
import { voiceOf, type Compiled } from './core-notes';
import { sayAt, sayWith, type Voice } from '$lib/core/voice';

/** Every code's message, from the table `npm run i18n` generates: a stale one fails the type check. */
const MESSAGES: Record<CoreCode, unknown> = CORE_MESSAGES;
/** Every message of the catalogue in the interface language. */
const SAID = voiceOf(MESSAGES as Record<string, Compiled>);

/** The interface language's voice (`$lib/core/voice`): its messages, role and field names. */
const INTERFACE: Voice = {
	message: (code, params = {}) =>
		// The three verdicts as the page's language lists them (支持、部分支持和驳回 on a Chinese page).
		SAID.message(
			code,
			code === 'claim_verdict' ? { ...params, verdicts: localList([...VERDICTS]) } : params
		),
	modelRole: roleName,
	field: (name) => problemField(name)
};

/** True in the base locale (English), where the core's sentence is shown as it wrote it. */
const isBase = (locale: string) => locale === baseLocale;

/** A coded text in the interface language. */
export function sayCore(text: CoreText): string {
	return sayWith(text, INTERFACE);
}

/**
 * The core's text in the interface language when it has a code (or every piece of it has one),
 * else its English.
 */
export function coreText(
	english: string,
	said: CoreText | readonly CoreText[] | null | undefined
): string {
	if (!said || isBase(getLocale())) return english;
	return 'code' in said ? sayCore(said) : said.map(sayCore).join('');
}

/** Field labels the validator writes (its own words); other fields are JSON names, kept. */
const FIELD_LABELS: Record<string, CoreCode> = {
	'complete history': 'field_complete_history',
	'underspecified history': 'field_underspecified_history',
	histories: 'field_histories',
	'history fields': 'field_history_fields'
};

/** A problem's field in the interface language: the validator's labels translated, names as written. */
export function problemField(field: string): string {
	if (isBase(getLocale()) || !Object.hasOwn(FIELD_LABELS, field)) return escapeControl(field);
	return SAID.message(FIELD_LABELS[field]);
}

/** The problem alone (no place), in the interface language. */
export function problemMessage(p: DatasetProblem): string {
	return p.said && !isBase(getLocale()) ? sayCore(p.said) : p.message;
}

/**
 * One full line, place and problem, in the interface language: `案例 #17（case_number
 * 2023-041）信息缺失历史，消息 3：应为 "assistant"，实为 "user"`. Positions keep their
 * zero-based meaning. A problem without a code is its English line.
 */
export function problemLine(p: DatasetProblem): string {
	if (!p.said || isBase(getLocale())) return p.text;
	const caseNumber = p.caseNumber === null ? null : escapeControl(p.caseNumber);
	return sayAt({ ...p, caseNumber }, sayCore(p.said), INTERFACE);
}

/**
 * Output rules of PROTOCOL.md §3: reasoning is split off the response, and judge outputs are
 * JSON parsed leniently (fenced block or surrounding prose; the last object that fits wins),
 * validated with zod, and re-asked when invalid.
 */
import { z } from 'zod';
import { Verdict } from '../dataset/types';
import { ModelCallError } from '../errors';
import { coded } from '../said';
import { english } from '../voice';
import { DcgLabel, LcaLabel } from '../records';
import type { ChatRequest, ChatResult, ModelClient } from './types';
import { clipText, RAW_OUTPUT_CHARS } from '../text/clip';
import { escapeControl } from '../text/escape-control';
import { findJsonObjects } from './json-objects';

const THINK_OPEN = '<think>';
const THINK_CLOSE = '</think>';

/**
 * Splits a completion into `response` and `reasoning`. Reasoning is a `<think>…</think>` block
 * at the start of the content and/or a `reasoning_content`/`reasoning` field of the message.
 * A content that closes `</think>` without opening it counts too: some servers strip the opening
 * tag of DeepSeek-R1 style output. An unclosed `<think>` (a cut-off generation) is all reasoning
 * and leaves an empty response, which the client then rejects.
 */
export function splitReasoning(
	content: string | null | undefined,
	reasoningField?: string | null
): { response: string; reasoning: string | null } {
	const parts: string[] = [];
	if (reasoningField?.trim()) parts.push(reasoningField.trim());
	let text = content ?? '';
	const lead = text.trimStart();
	if (lead.startsWith(THINK_OPEN)) {
		const end = lead.indexOf(THINK_CLOSE);
		const inner = end < 0 ? lead.slice(THINK_OPEN.length) : lead.slice(THINK_OPEN.length, end);
		if (inner.trim()) parts.push(inner.trim());
		text = end < 0 ? '' : lead.slice(end + THINK_CLOSE.length);
	} else {
		const end = text.indexOf(THINK_CLOSE);
		if (end >= 0 && !text.slice(0, end).includes(THINK_OPEN)) {
			if (text.slice(0, end).trim()) parts.push(text.slice(0, end).trim());
			text = text.slice(end + THINK_CLOSE.length);
		}
	}
	return { response: text.trim(), reasoning: parts.length ? parts.join('\n\n') : null };
}

/** `judge_lca`: 澄清 → clarification, 直接判断 → judgment. */
export const JudgeLcaOutput = z
	.object({
		label: z
			.string()
			.trim()
			.pipe(z.enum(['澄清', '直接判断']))
	})
	.transform((o): { label: LcaLabel } => ({
		label: o.label === '澄清' ? 'clarification' : 'judgment'
	}));

/** `judge_dcg`: did the question target the focal point / key details? */
export const JudgeDcgOutput = z.object({ label: z.string().trim().pipe(DcgLabel) });

function extractSchema(claimCount: number) {
	return z.object({
		verdicts: z
			.array(z.string().trim().pipe(Verdict))
			.length(claimCount, `expected exactly ${claimCount} verdicts, one per claim in order`)
	});
}

/** The schemas of `judgeExtractOutput` made so far: building one costs more than its check. */
const extractSchemas = new Map<number, ReturnType<typeof extractSchema>>();

/** `judge_extract` for a case with `claimCount` claims: one verdict per claim, in claim order. */
export function judgeExtractOutput(claimCount: number) {
	let schema = extractSchemas.get(claimCount);
	if (!schema) {
		schema = extractSchema(claimCount);
		extractSchemas.set(claimCount, schema);
	}
	return schema;
}

export type JudgeParse<T> = { ok: true; value: T } | { ok: false; error: string };

/**
 * At most this many of the answer's last objects are tried against the contract; an answer with
 * more (thousands of `{}`) has its earlier ones ignored, so validating stays bounded too.
 */
export const MAX_JUDGE_CANDIDATES = 1000;

/**
 * Finds the judge's conclusion in `text` and validates it (PROTOCOL.md §3). Every JSON object of
 * the text is a candidate, bare, in prose or in a ```json fence alike (`findJsonObjects`, linear
 * in the text's length); the LAST one that fits the contract wins, so an object the judge quotes
 * before its own conclusion (say, a `{"label": "是"}` that the evaluated model wrote into its
 * question) never decides. An object holding others is tried before them, as it ends after them.
 * Objects that do not fit (`{"confidence": 0.9}` after the answer) are passed over. When none
 * fits, the error describes the last object that was valid JSON (the most likely intended
 * answer), or says that no JSON object was found.
 */
export function parseJudgeJson<S extends z.ZodType>(
	text: string,
	schema: S
): JudgeParse<z.output<S>> {
	const { objects } = findJsonObjects(text);
	let lastError: string | null = null;
	const first = Math.max(0, objects.length - MAX_JUDGE_CANDIDATES);
	for (let i = objects.length - 1; i >= first; i--) {
		const parsed = schema.safeParse(objects[i].value);
		if (parsed.success) return { ok: true, value: parsed.data };
		lastError ??= `${escapeControl(clipText(text.slice(objects[i].start, objects[i].end), 200))} does not fit: ${describeIssues(parsed.error)}`;
	}
	return { ok: false, error: lastError ?? 'no JSON object found in the output' };
}

function describeIssues(error: z.ZodError): string {
	return error.issues
		.map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message))
		.join('; ');
}

/** Options of {@link completeJudge}. */
export interface CompleteJudgeOptions {
	/** Further asks after an invalid output (PROTOCOL.md §3). @default 3 */
	reasks?: number;
	/** Told about each invalid output before it is re-asked, for logs. */
	onInvalid?: (info: { attempt: number; error: string; rawOutput: string }) => void;
}

export interface JudgeResult<T> {
	value: T;
	/** The completion whose response validated. */
	result: ChatResult;
	/** Asks it took, 1 when the first output was valid. */
	asks: number;
}

/**
 * Asks a judge and validates its JSON, re-asking the same prompt when the output does not fit
 * the schema. Throws `ModelCallError` kind `invalid_output` with the last raw output after the
 * last re-ask; call failures (`ModelCallError` from the client) pass through unchanged.
 */
export async function completeJudge<S extends z.ZodType>(
	client: ModelClient,
	request: ChatRequest,
	schema: S,
	options: CompleteJudgeOptions = {}
): Promise<JudgeResult<z.output<S>>> {
	const reasks = options.reasks ?? 3;
	let lastError = '';
	let lastRaw = '';
	for (let ask = 1; ask <= reasks + 1; ask++) {
		const result = await client.complete(request);
		const parsed = parseJudgeJson(result.response, schema);
		if (parsed.ok) return { value: parsed.value, result, asks: ask };
		lastError = parsed.error;
		lastRaw = result.response;
		if (ask <= reasks) options.onInvalid?.({ attempt: ask, error: lastError, rawOutput: lastRaw });
	}
	const said = coded('judge_invalid_json', {
		case: request.caseNumber,
		task: request.task,
		asks: reasks + 1,
		detail: lastError
	});
	throw new ModelCallError(english(said), {
		kind: 'invalid_output',
		caseNumber: request.caseNumber,
		role: request.role,
		task: request.task,
		rawOutput: clipText(lastRaw, RAW_OUTPUT_CHARS),
		said: [said]
	});
}

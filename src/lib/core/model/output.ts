/**
 * Output rules of SPEC §3: reasoning is split off the response, and judge outputs are JSON
 * parsed leniently (fenced block or surrounding prose), validated with zod, and re-asked when
 * invalid.
 */
import { z } from 'zod';
import { Verdict } from '../dataset/types';
import { ModelCallError } from '../errors';
import { coded } from '../said';
import { DcgLabel, LcaLabel } from '../records';
import type { ChatRequest, ChatResult, ModelClient } from './types';
import { clipText, RAW_OUTPUT_CHARS } from '../text/clip';
import { escapeControl } from '../text/escape-control';

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

/** `judge_extract` for a case with `claimCount` claims: one verdict per claim, in claim order. */
export function judgeExtractOutput(claimCount: number) {
	return z.object({
		verdicts: z
			.array(z.string().trim().pipe(Verdict))
			.length(claimCount, `expected exactly ${claimCount} verdicts, one per claim in order`)
	});
}

export type JudgeParse<T> = { ok: true; value: T } | { ok: false; error: string };

/**
 * Finds the judge's JSON object in `text` and validates it. Tried in order: each ```json (or
 * plain ```) fenced block, then each balanced `{…}` object in the text; the first candidate that
 * validates wins. When none does, the error describes the first candidate that was valid JSON
 * (the most likely intended answer), or says that no JSON object was found.
 */
export function parseJudgeJson<S extends z.ZodType>(
	text: string,
	schema: S
): JudgeParse<z.output<S>> {
	let firstError: string | null = null;
	for (const candidate of jsonCandidates(text)) {
		let json: unknown;
		try {
			json = JSON.parse(candidate);
		} catch {
			continue;
		}
		const parsed = schema.safeParse(json);
		if (parsed.success) return { ok: true, value: parsed.data };
		firstError ??= `${escapeControl(clipText(candidate, 200))} does not fit: ${describeIssues(parsed.error)}`;
	}
	return { ok: false, error: firstError ?? 'no JSON object found in the output' };
}

function* jsonCandidates(text: string): Generator<string> {
	for (const m of text.matchAll(/```[a-zA-Z]*[ \t]*\r?\n?([\s\S]*?)```/g)) yield m[1].trim();
	for (let i = text.indexOf('{'); i >= 0; i = text.indexOf('{', i + 1)) {
		const end = balancedEnd(text, i);
		if (end > 0) yield text.slice(i, end);
	}
}

/** Index just past the `}` closing the object opened at `start`, skipping braces in strings. */
function balancedEnd(text: string, start: number): number {
	let depth = 0;
	let inString = false;
	for (let i = start; i < text.length; i++) {
		const c = text[i];
		if (inString) {
			if (c === '\\') i++;
			else if (c === '"') inString = false;
		} else if (c === '"') inString = true;
		else if (c === '{') depth++;
		else if (c === '}' && --depth === 0) return i + 1;
	}
	return -1;
}

function describeIssues(error: z.ZodError): string {
	return error.issues
		.map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message))
		.join('; ');
}

/** Options of {@link completeJudge}. */
export interface CompleteJudgeOptions {
	/** Further asks after an invalid output (SPEC §3). @default 3 */
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
	throw new ModelCallError(
		`case ${request.caseNumber}, ${request.task}: the judge's output was not the expected JSON ` +
			`after ${reasks + 1} asks (${lastError}). The raw output is kept below; check that the ` +
			`judge model follows the ${request.task} prompt of the prompt pack, or choose another judge model.`,
		{
			kind: 'invalid_output',
			caseNumber: request.caseNumber,
			role: request.role,
			task: request.task,
			rawOutput: clipText(lastRaw, RAW_OUTPUT_CHARS),
			said: [
				coded('judge_invalid_json', {
					case: request.caseNumber,
					task: request.task,
					asks: reasks + 1,
					detail: lastError
				})
			]
		}
	);
}

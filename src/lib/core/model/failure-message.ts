/**
 * Turns a failed call into the sentence a researcher reads: which case, which role's model at
 * which endpoint, what happened, and which setting to change — in the CLI's words (environment
 * variables, flags) and the app's (Settings).
 */
import type { Role } from '../records';
import type { Failure } from './retry';
import { clipText, QUOTED_CHARS } from '../text/clip';
import { escapeControl } from '../text/escape-control';
import { coded, type CoreText } from '../said';
import type { RedirectRefused } from './redirect';

/** A failure as the client knows it: the retry policy's `Failure` and what it learnt around it. */
export interface ClientFailure extends Failure {
	/** The error body was cut at this many bytes (`bodyCutAt`): only a prefix was read. */
	bodyCutAt?: number;
	/** A redirect the call refused to follow (kind `bad_request`). */
	redirect?: RedirectRefused;
	/** For `unreachable`: the browser says it is offline (`navigator.onLine`). */
	offline?: boolean;
	/** For `unreachable`: a `no-cors` probe got no answer either, so nothing answers there now. */
	silent?: boolean;
}

/**
 * The provider's words as a message quotes them: at most `QUOTED_CHARS` characters with the
 * full length, or, for a body cut at its bound (`cutAt`), its first characters and that it
 * was longer than the bound (its full length was never read). Not escaped.
 */
export function providerWords(text: string, cutAt?: number): string {
	if (cutAt === undefined) return clipText(text, QUOTED_CHARS);
	return `${head(text)}… (more than ${cutAt} bytes; the rest was not read)`;
}

/** {@link providerWords} of a cut body as a code, for the `detail` (or `said`) part. */
export function providerWordsSaid(text: string, cutAt: number): CoreText {
	return coded('provider_body_cut', { said: head(text), bytes: cutAt });
}

/** The first `QUOTED_CHARS` characters of `text`, never half a surrogate pair. */
function head(text: string): string {
	if (text.length <= QUOTED_CHARS) return text;
	const last = text.charCodeAt(QUOTED_CHARS - 1);
	return text.slice(0, last >= 0xd800 && last <= 0xdbff ? QUOTED_CHARS - 1 : QUOTED_CHARS);
}

interface RoleSettings {
	key: string;
	baseURL: string;
	model: string;
}

const ROLE_SETTINGS: Record<Role, RoleSettings> = {
	evaluated: {
		key: 'LEXPILOT_EVAL_API_KEY (or OPENAI_API_KEY) / the evaluated model key in Settings',
		baseURL:
			'LEXPILOT_EVAL_BASE_URL (or OPENAI_BASE_URL) / the evaluated model base URL in Settings',
		model: '--model / LEXPILOT_MODEL / the evaluated model in Settings'
	},
	user: {
		key: 'LEXPILOT_USER_API_KEY (or OPENAI_API_KEY) / the user model key in Settings',
		baseURL: 'LEXPILOT_USER_BASE_URL (or OPENAI_BASE_URL) / the user model base URL in Settings',
		model: '--user-model / LEXPILOT_USER_MODEL / the user model in Settings'
	},
	judge: {
		key: 'LEXPILOT_JUDGE_API_KEY (or OPENAI_API_KEY) / the judge key in Settings',
		baseURL: 'LEXPILOT_JUDGE_BASE_URL (or OPENAI_BASE_URL) / the judge base URL in Settings',
		model: '--judge-model / LEXPILOT_JUDGE_MODEL / the judge model in Settings'
	}
};

const STATUS_TEXT: Record<number, string> = {
	400: 'Bad Request',
	401: 'Unauthorized',
	403: 'Forbidden',
	404: 'Not Found',
	408: 'Request Timeout',
	409: 'Conflict',
	422: 'Unprocessable Entity',
	429: 'Too Many Requests',
	500: 'Internal Server Error',
	502: 'Bad Gateway',
	503: 'Service Unavailable',
	504: 'Gateway Timeout'
};

export interface FailureContext {
	caseNumber: string;
	role: Role;
	model: string;
	baseURL: string;
	attempts: number;
	maxTokens: number;
	timeoutMs: number;
	/** This endpoint answered an earlier call of this client: it is up. @default false */
	answeredBefore?: boolean;
}

/** The message of the `ModelCallError` thrown for `failure`. */
export function describeFailure(f: ClientFailure, c: FailureContext): string {
	const where = `case ${escapeControl(c.caseNumber)}, ${c.role} model ${escapeControl(c.model)} at ${c.baseURL}`;
	const s = ROLE_SETTINGS[c.role];
	const status = f.status ? `${f.status} ${STATUS_TEXT[f.status] ?? ''}`.trim() : '';
	// The provider's words are quoted short and escaped: a body can be megabytes, or hold
	// line breaks and terminal codes.
	// (A CORS hint and an output rule are our own sentences, kept whole.)
	const ours = f.kind === 'cors' || f.kind === 'invalid_output';
	const detail = escapeControl(ours ? f.detail : providerWords(f.detail, f.bodyCutAt));
	const said = detail ? ` (provider: "${detail}")` : '';
	const after = c.attempts > 1 ? ` after ${c.attempts} attempts` : '';
	// Its own sentence: where the redirect pointed is escaped and its query values hidden.
	if (f.redirect) return `${where}: ${f.redirect.message}.`;
	switch (f.kind) {
		case 'auth':
			return `${where}: ${status}${said} — the key was refused: check ${s.key}.`;
		case 'not_found':
			return (
				`${where}: ${status}${said} — the model "${c.model}" is unknown to this endpoint, or the ` +
				`base URL path is wrong (it usually ends in /v1): check ${s.model} and ${s.baseURL}.`
			);
		case 'bad_request':
			return `${where}: ${status}${said} — the provider rejected the request; fix the setting it names (temperature, max tokens, model) and run again.`;
		case 'rate_limit':
			return `${where}: ${status}${after}${said} — the provider kept rate-limiting; wait, lower --concurrency / Concurrency in Settings, or check the account's quota, then resume the run.`;
		case 'server':
			return `${where}: ${status || 'server error'}${after} (${detail}) — the provider failed; resume the run later.`;
		case 'timeout':
			return `${where}: no answer within ${c.timeoutMs / 1000} s${after} — the server is slow or overloaded; raise --timeout / Timeout in Settings or resume later.`;
		case 'unreachable':
			if (f.offline) {
				return (
					`${where}: the browser is offline${after} (${detail}) — the network connection was ` +
					'lost, not the server; reconnect, then resume the run.'
				);
			}
			if (f.silent && (f.midAnswer || c.answeredBefore)) {
				return (
					`${where}: the connection was lost${after} (${detail}), and nothing answers at this ` +
					'address any more, although it answered earlier calls — the server stopped, or the ' +
					'network to it is down; check both, then resume the run.'
				);
			}
			if (f.midAnswer || c.answeredBefore) {
				const when = f.midAnswer
					? 'the connection dropped while the answer was being received'
					: 'the connection closed before an answer, although this endpoint answered earlier calls';
				return (
					`${where}: ${when}${after} (${detail}) — the server is up, but it or a proxy in between ` +
					'closed the connection (overload, a restart, a proxy time limit on long answers); ' +
					"resume the run, and raise the proxy's time limit if it keeps happening."
				);
			}
			return (
				`${where}: could not connect${after} (${detail}) — check that the server is running and ` +
				`that ${s.baseURL} is right. In the browser a page served over https cannot call an http:// ` +
				`endpoint other than localhost.`
			);
		case 'cors':
			return (
				`${where}: the server is up but refused this page's origin (CORS) — ${detail} ` +
				`Or run this stage with the CLI (npm run lexpilot), which is not subject to CORS.`
			);
		case 'invalid_output':
			return `${where}: ${detail}${after}; nothing was saved for this case.`;
		case 'aborted':
			return `${where}: cancelled.`;
	}
}

/**
 * {@link describeFailure} as a code, for the browser (which names Settings, not flags). Null when
 * a part of it has no code (an output rule worded elsewhere): the English is shown then.
 */
export function failureSaid(f: ClientFailure, c: FailureContext): CoreText | null {
	const where = {
		case: c.caseNumber,
		modelRole: c.role,
		model: c.model,
		url: c.baseURL
	};
	const ours = f.kind === 'cors' || f.kind === 'invalid_output';
	const detail = ours ? f.detail : providerWords(f.detail, f.bodyCutAt);
	// A cut body's words come with a note of their own, said in the reader's language.
	const cut =
		!ours && f.bodyCutAt !== undefined
			? { detail: [providerWordsSaid(f.detail, f.bodyCutAt)] }
			: undefined;
	const status = f.status ?? '—';
	const attempts = c.attempts;
	if (f.redirect) {
		return coded(
			'fail_redirect',
			{ ...where, detail: f.redirect.message },
			{ detail: [f.redirect.said] }
		);
	}
	switch (f.kind) {
		case 'auth':
			return coded('fail_auth', { ...where, status, detail }, cut);
		case 'not_found':
			return coded('fail_not_found', { ...where, status, detail }, cut);
		case 'bad_request':
			return coded('fail_bad_request', { ...where, status, detail }, cut);
		case 'rate_limit':
			return coded('fail_rate_limit', { ...where, status, attempts, detail }, cut);
		case 'server':
			return coded('fail_server', { ...where, status, attempts, detail }, cut);
		case 'timeout':
			return coded('fail_timeout', { ...where, seconds: c.timeoutMs / 1000, attempts });
		case 'unreachable':
			if (f.offline) return coded('fail_offline', { ...where, attempts, detail });
			if (f.silent && (f.midAnswer || c.answeredBefore)) {
				return coded('fail_stopped_answering', { ...where, attempts, detail });
			}
			if (f.midAnswer) return coded('fail_dropped_mid_answer', { ...where, attempts, detail });
			if (c.answeredBefore) {
				return coded('fail_dropped_before_answer', { ...where, attempts, detail });
			}
			return coded('fail_unreachable', { ...where, attempts, detail });
		case 'cors':
			return f.detailSaid
				? coded('fail_cors', { ...where, detail }, { detail: [f.detailSaid] })
				: null;
		case 'invalid_output':
			return f.detailSaid
				? coded('fail_invalid_output', { ...where, attempts, detail }, { detail: [f.detailSaid] })
				: null;
		case 'aborted':
			return coded('fail_aborted', where);
	}
}

/** Why an output was rejected and, for the final message, what to change. */
export function describeRejectedOutput(
	reason: 'empty' | 'length' | 'tool_calls',
	maxTokens: number
): string {
	switch (reason) {
		case 'length':
			return `the output was cut off at max_tokens ${maxTokens} (finish_reason "length") — raise --max-tokens / Max tokens in Settings (reasoning models need room for their reasoning; a new setting needs a new run id)`;
		case 'tool_calls':
			return 'the model answered with tool calls and no text — the benchmark offers no tools and needs a text answer; check that the model, or a proxy in front of it, does not force tool use';
		case 'empty':
			return 'the model returned empty content — check that the model id is a chat model that answers this prompt';
	}
}

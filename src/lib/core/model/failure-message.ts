/**
 * Turns a failed call into the sentence a researcher reads, as a code with its parts
 * (`../said.ts`): which case, which role's model at which endpoint, what happened, and which
 * setting to change, naming both the CLI's flag or variable and the page's Settings.
 */
import type { Role } from '../records';
import type { Failure } from './retry';
import { clipText, QUOTED_CHARS, textHead } from '../text/clip';
import { coded, type CoreCode, type CoreText } from '../said';
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
	return `${textHead(text, QUOTED_CHARS)}… (more than ${cutAt} bytes; the rest was not read)`;
}

/** {@link providerWords} of a cut body as a code, for the `detail` (or `said`) part. */
export function providerWordsSaid(text: string, cutAt: number): CoreText {
	return coded('provider_body_cut', { said: textHead(text, QUOTED_CHARS), bytes: cutAt });
}

/** Statuses said with their reason phrase (`http_404`: "404 Not Found", "404 未找到"). */
const NAMED_STATUSES = new Set([400, 401, 403, 404, 408, 409, 422, 429, 500, 502, 503, 504]);

/** The codes of {@link NAMED_STATUSES}. */
type StatusCode = Extract<CoreCode, `http_${number}`>;

/** Where each role's key, base URL and model are set: a flag or variable, and Settings. */
const SETTINGS = {
	key: {
		evaluated: 'setting_key_evaluated',
		user: 'setting_key_user',
		judge: 'setting_key_judge'
	},
	baseUrl: {
		evaluated: 'setting_base_url_evaluated',
		user: 'setting_base_url_user',
		judge: 'setting_base_url_judge'
	},
	model: {
		evaluated: 'setting_model_evaluated',
		user: 'setting_model_user',
		judge: 'setting_model_judge'
	}
} as const satisfies Record<string, Record<Role, CoreCode>>;

const setting = (which: keyof typeof SETTINGS, role: Role): CoreText[] => [
	coded(SETTINGS[which][role], {})
];

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

/**
 * A failed call as the sentence a researcher reads: which case, which role's model at which
 * endpoint, what happened, and which setting to change (flag or variable, and Settings).
 */
export function failureSaid(f: ClientFailure, c: FailureContext): CoreText {
	const where = {
		case: c.caseNumber,
		modelRole: c.role,
		model: c.model,
		url: c.baseURL
	};
	// The provider's words are quoted short (a body can be megabytes), `coded` escapes them; a CORS
	// hint and an output rule are our own sentences, kept whole, in the reader's language.
	const ours = f.kind === 'cors' || f.kind === 'invalid_output';
	const detail = ours ? f.detail : providerWords(f.detail, f.bodyCutAt);
	const cut =
		!ours && f.bodyCutAt !== undefined ? [providerWordsSaid(f.detail, f.bodyCutAt)] : null;
	const detailParts = ours && f.detailSaid ? [f.detailSaid] : cut;
	// Without parts of its own, `detail` is said as its parameter gives it.
	const withDetail = (detailParts ? { detail: detailParts } : {}) as { detail: CoreText[] };
	const provider = detail
		? [coded('provider_quote', { detail }, cut ? { detail: cut } : undefined)]
		: [];
	// The status with its reason phrase in each language where it is a common one.
	const status = !f.status
		? []
		: NAMED_STATUSES.has(f.status)
			? [coded(`http_${f.status}` as StatusCode, {})]
			: [coded('http_status', { code: f.status })];
	// One attempt goes without saying.
	const after = c.attempts > 1 ? [coded('after_attempts', { count: c.attempts })] : [];
	if (f.redirect) {
		return coded(
			'fail_redirect',
			{ ...where, detail: f.redirect.message },
			{ detail: [f.redirect.said] }
		);
	}
	switch (f.kind) {
		case 'auth':
			return coded('fail_auth', where, { status, provider, key: setting('key', c.role) });
		case 'not_found':
			return coded('fail_not_found', where, {
				status,
				provider,
				modelSetting: setting('model', c.role),
				baseUrl: setting('baseUrl', c.role)
			});
		case 'bad_request':
			return coded('fail_bad_request', where, { status, provider });
		case 'rate_limit':
			return coded('fail_rate_limit', where, { status, after, provider });
		case 'server':
			return status.length
				? coded('fail_server', { ...where, detail }, { status, after, ...withDetail })
				: coded(
						'fail_server',
						{ ...where, detail },
						{ after, status: [coded('status_server_error', {})], ...withDetail }
					);
		case 'timeout':
			return coded('fail_timeout', { ...where, seconds: c.timeoutMs / 1000 }, { after });
		case 'unreachable': {
			const code = f.offline
				? 'fail_offline'
				: f.silent && (f.midAnswer || c.answeredBefore)
					? 'fail_stopped_answering'
					: f.midAnswer
						? 'fail_dropped_mid_answer'
						: c.answeredBefore
							? 'fail_dropped_before_answer'
							: null;
			if (code) return coded(code, { ...where, detail }, { after, ...withDetail });
			return coded(
				'fail_unreachable',
				{ ...where, detail },
				{ after, baseUrl: setting('baseUrl', c.role), ...withDetail }
			);
		}
		case 'cors':
			return coded('fail_cors', { ...where, detail }, withDetail);
		case 'invalid_output':
			return coded('fail_invalid_output', { ...where, detail }, { after, ...withDetail });
		case 'aborted':
			return coded('fail_aborted', where);
	}
}

/** Why an output was rejected and, for the final message, what to change. */
export function rejectedOutputSaid(
	reason: 'empty' | 'length' | 'tool_calls',
	maxTokens: number
): CoreText {
	switch (reason) {
		case 'length':
			return coded('output_cut_off', { maxTokens });
		case 'tool_calls':
			return coded('output_tool_calls', {});
		case 'empty':
			return coded('output_empty', {});
	}
}

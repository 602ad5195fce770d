/**
 * The Models page's "Test connection": one tiny real chat call with a role's endpoint, its
 * outcome classified and said as a code (`../said.ts`) with a hint of what to change. Which
 * provider a URL points at and its CORS fix live in `./providers.ts`, the probe that tells a
 * CORS refusal from a server that is down in `./probe.ts`; both are re-exported here.
 */
import { keyCharacter } from './key-check';
import { coded, redactSaid, type CoreText } from '../said';
import { english } from '../voice';
import { openaiSdk } from './sdk';
import OpenAI, {
	APIConnectionError,
	APIConnectionTimeoutError,
	APIError,
	AuthenticationError,
	NotFoundError,
	PermissionDeniedError,
	RateLimitError
} from 'openai';
import { providerMessage } from './retry';
import { bodyCutAt, boundedFetch, RedirectRefused } from './bounded-fetch';
import { providerWords, providerWordsSaid } from './failure-message';
import { redactKeys } from '../text/redact';
import { checkBaseUrl, publicBaseUrl, sdkTarget } from './base-url';
import { clipText, QUOTED_CHARS } from '../text/clip';
import { escapeControl } from '../text/escape-control';
import type { RoleEndpoint } from './types';
import { guessProvider, type Provider } from './providers';
import { probeCors, type DiagnoseOptions } from './probe';

export { corsHint, corsHintSaid, guessProvider, type Provider } from './providers';
export { probeCors } from './probe';

export type ConnectionStatus = 'ok' | 'cors' | 'unreachable' | 'auth' | 'not_found' | 'other';

export interface ConnectionTestResult {
	status: ConnectionStatus;
	provider: Provider;
	/** One sentence for the user. */
	message: string;
	/** What to change, when something is wrong. */
	hint?: string;
	/** `message` as a code and its parameters, for the interface language. */
	said?: CoreText;
	/** `hint` as a code. */
	hintSaid?: CoreText;
	/** Round trip of the test call, when it succeeded. */
	latencyMs?: number;
	/** HTTP status, when the server answered with an error. */
	httpStatus?: number;
}

/** A result as it is classified: said as codes, its English made once by {@link spoken}. */
type Classified = Omit<ConnectionTestResult, 'message' | 'hint' | 'said'> & { said: CoreText };

/**
 * The "Test connection" button: one tiny real chat call ("ping", at most 8 tokens) with the
 * role's endpoint, classified. Never throws; never reports the key.
 */
export async function testConnection(
	endpoint: RoleEndpoint,
	options: DiagnoseOptions = {}
): Promise<ConnectionTestResult> {
	return spoken(await classify(endpoint, options), endpoint.apiKey);
}

async function classify(endpoint: RoleEndpoint, options: DiagnoseOptions): Promise<Classified> {
	const provider = guessProvider(endpoint.baseURL);
	const checked = checkBaseUrl(endpoint.baseURL);
	if (!checked.ok) {
		return {
			status: 'other',
			provider,
			said: coded('conn_base_url', { problem: checked.problem }, { problem: [checked.said] }),
			hintSaid: coded('conn_base_url_hint', {})
		};
	}
	// Messages name the endpoint without query values or key; the SDK gets the query apart.
	const shown: RoleEndpoint = {
		...endpoint,
		baseURL: publicBaseUrl(endpoint.baseURL, [endpoint.apiKey])
	};
	const target = sdkTarget(endpoint.baseURL);
	const badKey = keyCharacter(endpoint.apiKey);
	if (badKey) {
		return {
			status: 'auth',
			provider,
			said: coded('conn_key_character', {
				model: shown.model,
				url: shown.baseURL,
				char: badKey.char,
				position: badKey.position
			}),
			hintSaid: coded('conn_paste_key', {})
		};
	}
	const sdk = openaiSdk(endpoint, {
		maxRetries: 0,
		timeout: options.timeoutMs ?? 20_000,
		// Every body bounded and no redirect out of the origin, as for the run's calls.
		fetch: boundedFetch(options.fetchImpl ?? ((input, init) => globalThis.fetch(input, init)))
	});
	const started = Date.now();
	try {
		await sdk.chat.completions.create(
			{ model: endpoint.model, messages: [{ role: 'user', content: 'ping' }], n: 1, max_tokens: 8 },
			{ signal: options.signal }
		);
		const latencyMs = Date.now() - started;
		return {
			status: 'ok',
			provider,
			latencyMs,
			said: coded('conn_ok', { model: shown.model, url: shown.baseURL, ms: latencyMs })
		};
	} catch (e) {
		return classifyTestFailure(e, sdk, shown, target.baseURL, provider, options);
	}
}

async function classifyTestFailure(
	e: unknown,
	sdk: OpenAI,
	endpoint: RoleEndpoint,
	probeURL: string,
	provider: Provider,
	options: DiagnoseOptions
): Promise<Classified> {
	const where = { model: endpoint.model, url: endpoint.baseURL };
	if (e instanceof APIConnectionTimeoutError) {
		const seconds = Math.round((options.timeoutMs ?? 20_000) / 1000);
		return {
			status: 'unreachable',
			provider,
			said: coded('conn_timeout', { ...where, seconds }),
			hintSaid: coded('conn_timeout_hint', {})
		};
	}
	if (e instanceof APIConnectionError && e.cause instanceof RedirectRefused) {
		return {
			status: 'other',
			provider,
			said: coded(
				'conn_redirect',
				{ ...where, detail: e.cause.message },
				{ detail: [e.cause.said] }
			)
		};
	}
	if (e instanceof APIConnectionError) {
		const probe = await probeCors(probeURL, options);
		if (probe.kind === 'offline') {
			return {
				status: 'unreachable',
				provider,
				said: probe.hintSaid
			};
		}
		return probe.kind === 'cors'
			? {
					status: 'cors',
					provider,
					said: coded('conn_cors', { url: endpoint.baseURL }),
					hintSaid: probe.hintSaid
				}
			: {
					status: 'unreachable',
					provider,
					said: coded('conn_unreachable', { url: endpoint.baseURL }),
					hintSaid: probe.hintSaid
				};
	}
	if (!(e instanceof APIError)) {
		const detail = escapeControl(
			clipText(e instanceof Error ? e.message : String(e), QUOTED_CHARS)
		);
		return {
			status: 'other',
			provider,
			said: coded('conn_unexpected', { ...where, detail })
		};
	}
	const httpStatus = e.status;
	// The provider's words, short and with control characters escaped (a body can be megabytes,
	// of which only a prefix was read: then it says so).
	const words = providerMessage(e);
	const cutAt = bodyCutAt(e.headers);
	const said = escapeControl(providerWords(words, cutAt));
	const cut = cutAt === undefined ? undefined : { said: [providerWordsSaid(words, cutAt)] };
	if (e instanceof AuthenticationError || e instanceof PermissionDeniedError) {
		return {
			status: 'auth',
			provider,
			httpStatus,
			said: coded('conn_auth', { url: endpoint.baseURL, status: httpStatus, said }, cut),
			hintSaid: coded('conn_auth_hint', {})
		};
	}
	if (e instanceof NotFoundError)
		return { ...(await explainNotFound(sdk, endpoint)), provider, httpStatus };
	if (e instanceof RateLimitError) {
		return {
			status: 'other',
			provider,
			httpStatus,
			said: coded('conn_rate_limited', { ...where, said }, cut),
			hintSaid: coded('conn_rate_limited_hint', {})
		};
	}
	return {
		status: 'other',
		provider,
		httpStatus,
		said: coded('conn_status', { ...where, status: httpStatus, said }, cut)
	};
}

/** A 404 means an unknown model or a wrong path; the model list tells which. */
async function explainNotFound(
	sdk: OpenAI,
	endpoint: RoleEndpoint
): Promise<Pick<Classified, 'status' | 'said' | 'hintSaid'>> {
	const versioned = /\/v\d+\/?$/.test(new URL(endpoint.baseURL).pathname);
	const where = { url: endpoint.baseURL, model: endpoint.model };
	try {
		const ids: string[] = [];
		for await (const m of sdk.models.list()) {
			ids.push(m.id);
			if (ids.length >= 200) break;
		}
		if (ids.length > 0 && !ids.includes(endpoint.model)) {
			const shown = ids.slice(0, 8).join(', ') + (ids.length > 8 ? ', …' : '');
			return {
				status: 'not_found',
				said: coded('conn_unknown_model', where),
				hintSaid: coded('conn_models_listed', { models: shown })
			};
		}
	} catch {
		// No model list either: most likely the path is wrong.
	}
	return {
		status: 'not_found',
		said: coded('conn_not_found', where),
		hintSaid: coded(versioned ? 'conn_check_path' : 'conn_path_v1', {})
	};
}

/**
 * The result in English, made from its codes; the key, in part or encoded, never shows in what
 * the page displays (see `redactKeys`).
 */
function spoken(result: Classified, apiKey: string): ConnectionTestResult {
	const said = redactSaid(result.said, apiKey);
	const hintSaid = result.hintSaid && redactSaid(result.hintSaid, apiKey);
	const clean = (s: string) => redactKeys(s, [apiKey]);
	return {
		...result,
		said,
		message: clean(english(said)),
		...(hintSaid ? { hint: clean(english(hintSaid)), hintSaid } : {})
	};
}

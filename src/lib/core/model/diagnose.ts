/**
 * Connection diagnosis for the browser app. A call that the browser blocks for CORS fails in the
 * SDK as `APIConnectionError` ("Connection error."), exactly like a server that is down. A
 * `no-cors` fetch tells them apart: it resolves (with an opaque response) when the server is up,
 * and rejects when nothing answers. Then the user gets the fix for their provider.
 */
import { keyCharacter } from './key-check';
import { coded, redactSaid, type CoreText } from '../said';
import { NO_KEY } from './openai-client';
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

export type Provider =
	'openai' | 'deepseek' | 'openrouter' | 'ollama' | 'lmstudio' | 'vllm' | 'llamacpp' | 'generic';

const HOSTS: Array<[RegExp, Provider]> = [
	[/(^|\.)openai\.com$/, 'openai'],
	[/(^|\.)deepseek\.com$/, 'deepseek'],
	[/(^|\.)openrouter\.ai$/, 'openrouter']
];

/** Default ports of local servers; a guess, since any server can listen anywhere. */
const PORTS: Record<string, Provider> = {
	'11434': 'ollama',
	'1234': 'lmstudio',
	'8000': 'vllm',
	'8080': 'llamacpp'
};

/** The provider a base URL most likely points at, from its host or its default port. */
export function guessProvider(baseURL: string): Provider {
	let url: URL;
	try {
		url = new URL(baseURL);
	} catch {
		return 'generic';
	}
	const host = url.hostname.toLowerCase();
	for (const [pattern, provider] of HOSTS) if (pattern.test(host)) return provider;
	return PORTS[url.port] ?? 'generic';
}

/** {@link corsHint} as a code; `origin` empty when the caller gave none. */
export function corsHintSaid(provider: Provider, origin = ''): CoreText {
	switch (provider) {
		case 'ollama':
			return origin ? coded('cors_ollama', { origin }) : coded('cors_ollama_page', {});
		case 'lmstudio':
			return coded('cors_lmstudio', {});
		case 'vllm':
			return origin ? coded('cors_vllm', { origin }) : coded('cors_vllm_page', {});
		case 'llamacpp':
			return coded('cors_llamacpp', {});
		case 'openai':
		case 'deepseek':
		case 'openrouter':
			return coded('cors_hosted', { provider: PROVIDER_NAMES[provider] });
		case 'generic':
			return origin ? coded('cors_generic', { origin }) : coded('cors_generic_page', {});
	}
}

/** What to change at `provider` so that a page at `origin` may call it. */
export function corsHint(provider: Provider, origin = "this page's origin"): string {
	switch (provider) {
		case 'ollama':
			return `Ollama only accepts pages it knows: restart it with OLLAMA_ORIGINS set to ${origin} (e.g. OLLAMA_ORIGINS="${origin}" ollama serve; on Windows/macOS set it as an environment variable for the Ollama app, then quit and reopen Ollama).`;
		case 'lmstudio':
			return `In LM Studio, open the Developer tab → server Settings, turn on "Enable CORS", and restart the server.`;
		case 'vllm':
			return `vLLM allows every origin unless started with --allowed-origins; restart it with --allowed-origins '["${origin}"]' (or without that flag), and check that the base URL ends in /v1.`;
		case 'llamacpp':
			return `llama.cpp's server sends CORS headers by default, so the URL is probably wrong: check that the base URL ends in /v1 (plus any --api-prefix) and that no proxy in front of it drops the headers.`;
		case 'openai':
		case 'deepseek':
		case 'openrouter':
			return `${PROVIDER_NAMES[provider]} may refuse calls made from a web page; run this stage with the CLI instead (npm run lexpilot -- …), or put a proxy that adds CORS headers in front of it.`;
		case 'generic':
			return `The server must answer the OPTIONS preflight with Access-Control-Allow-Origin for ${origin} and allow the Authorization, Content-Type and x-stainless-* request headers; enable CORS in its settings, or run this stage with the CLI.`;
	}
}

const PROVIDER_NAMES: Record<Provider, string> = {
	openai: 'OpenAI',
	deepseek: 'DeepSeek',
	openrouter: 'OpenRouter',
	ollama: 'Ollama',
	lmstudio: 'LM Studio',
	vllm: 'vLLM',
	llamacpp: 'llama.cpp',
	generic: 'The server'
};

/** Options of {@link probeCors} and {@link testConnection}. */
export interface DiagnoseOptions {
	/** @default globalThis.fetch */
	fetchImpl?: typeof fetch;
	/** The app's origin, quoted in the fix (the UI passes `location.origin`). */
	origin?: string;
	signal?: AbortSignal;
	/** Timeout of each request, in ms. @default 20000 (the probe: 5000) */
	timeoutMs?: number;
	/**
	 * Whether the browser says it is online (the page passes `() => navigator.onLine`; the core
	 * reads no DOM global). False means offline for certain; true may still be offline (a
	 * network without a route out), which the probe's own failure then tells. @default () => true
	 */
	online?: () => boolean;
}

export interface ProbeResult {
	/** `offline`: the browser is offline, nothing was asked; `unreachable`: nothing answered. */
	kind: 'cors' | 'unreachable' | 'offline';
	/** What to do about it. */
	hint: string;
	/** `hint` as a code. */
	hintSaid: CoreText;
}

/**
 * After a connection error: is the server up (then the browser refused it for CORS) or not?
 * Fits `OpenAIClientOptions.probeConnection`.
 */
export async function probeCors(
	baseURL: string,
	options: DiagnoseOptions = {}
): Promise<ProbeResult> {
	if (options.online?.() === false) {
		return {
			kind: 'offline',
			hint: offlineHint(baseURL),
			hintSaid: coded('conn_offline', { url: baseURL })
		};
	}
	const fetchImpl = options.fetchImpl ?? globalThis.fetch;
	const signals = [AbortSignal.timeout(options.timeoutMs ?? 5000)];
	if (options.signal) signals.push(options.signal);
	try {
		await fetchImpl(`${baseURL.replace(/\/+$/, '')}/models`, {
			mode: 'no-cors',
			signal: AbortSignal.any(signals)
		});
		const provider = guessProvider(baseURL);
		return {
			kind: 'cors',
			hint: corsHint(provider, options.origin),
			hintSaid: corsHintSaid(provider, options.origin)
		};
	} catch {
		return {
			kind: 'unreachable',
			hint: unreachableHint(baseURL),
			hintSaid: coded('unreachable_hint', { url: baseURL })
		};
	}
}

function offlineHint(baseURL: string): string {
	return `The browser is offline: nothing was sent to ${baseURL}. Connect to the network, then test again.`;
}

function unreachableHint(baseURL: string): string {
	return (
		`Nothing answered at ${baseURL}: check that the server is running and the host and port are right. ` +
		`A page served over https cannot call an http:// endpoint other than localhost (mixed content).`
	);
}

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

/**
 * The "Test connection" button: one tiny real chat call ("ping", at most 8 tokens) with the
 * role's endpoint, classified. Never throws; never reports the key.
 */
export async function testConnection(
	endpoint: RoleEndpoint,
	options: DiagnoseOptions = {}
): Promise<ConnectionTestResult> {
	const provider = guessProvider(endpoint.baseURL);
	const checked = checkBaseUrl(endpoint.baseURL);
	if (!checked.ok) {
		return {
			status: 'other',
			provider,
			message: `The base URL ${checked.problem}.`,
			hint: 'Use the full base URL, e.g. https://api.openai.com/v1 or http://localhost:11434/v1.',
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
	const at = `${shown.model} at ${shown.baseURL}`;
	const badKey = keyCharacter(endpoint.apiKey);
	if (badKey) {
		return {
			status: 'auth',
			provider,
			message: `${at}: ${badKey.text}`,
			hint: 'Paste the key again.',
			said: coded('conn_key_character', {
				model: shown.model,
				url: shown.baseURL,
				char: badKey.char,
				position: badKey.position
			}),
			hintSaid: coded('conn_paste_key', {})
		};
	}
	const sdk = new OpenAI({
		baseURL: target.baseURL,
		...(target.defaultQuery ? { defaultQuery: target.defaultQuery } : {}),
		apiKey: endpoint.apiKey || NO_KEY,
		dangerouslyAllowBrowser: true,
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
			message: `${at} answered in ${latencyMs} ms.`,
			said: coded('conn_ok', { model: shown.model, url: shown.baseURL, ms: latencyMs })
		};
	} catch (e) {
		return redactResult(
			await classifyTestFailure(e, sdk, shown, target.baseURL, provider, options),
			endpoint.apiKey
		);
	}
}

async function classifyTestFailure(
	e: unknown,
	sdk: OpenAI,
	endpoint: RoleEndpoint,
	probeURL: string,
	provider: Provider,
	options: DiagnoseOptions
): Promise<ConnectionTestResult> {
	const at = `${endpoint.model} at ${endpoint.baseURL}`;
	const where = { model: endpoint.model, url: endpoint.baseURL };
	if (e instanceof APIConnectionTimeoutError) {
		const seconds = Math.round((options.timeoutMs ?? 20_000) / 1000);
		return {
			status: 'unreachable',
			provider,
			message: `${at} did not answer within ${seconds} s.`,
			hint: 'The server may be loading the model or overloaded; try again, or check the URL.',
			said: coded('conn_timeout', { ...where, seconds }),
			hintSaid: coded('conn_timeout_hint', {})
		};
	}
	if (e instanceof APIConnectionError && e.cause instanceof RedirectRefused) {
		return {
			status: 'other',
			provider,
			message: `${at}: ${e.cause.message}.`,
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
				message: probe.hint,
				said: probe.hintSaid
			};
		}
		return probe.kind === 'cors'
			? {
					status: 'cors',
					provider,
					message: `The server at ${endpoint.baseURL} is up but does not allow calls from this page (CORS).`,
					hint: probe.hint,
					said: coded('conn_cors', { url: endpoint.baseURL }),
					hintSaid: probe.hintSaid
				}
			: {
					status: 'unreachable',
					provider,
					message: `Could not connect to ${endpoint.baseURL}.`,
					hint: probe.hint,
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
			message: `${at}: unexpected answer (${detail}).`,
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
			message: `${endpoint.baseURL} refused the key (${httpStatus}: ${said}).`,
			hint: 'Check the API key for this role (it may be missing, mistyped, or for another provider).',
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
			message: `${at} is reachable and accepted the key, but is rate-limiting (429: ${said}).`,
			hint: 'Check the account quota, or lower the concurrency.',
			said: coded('conn_rate_limited', { ...where, said }, cut),
			hintSaid: coded('conn_rate_limited_hint', {})
		};
	}
	return {
		status: 'other',
		provider,
		httpStatus,
		message: `${at} answered ${httpStatus}: ${said}`,
		said: coded('conn_status', { ...where, status: httpStatus, said }, cut)
	};
}

/** A 404 means an unknown model or a wrong path; the model list tells which. */
async function explainNotFound(
	sdk: OpenAI,
	endpoint: RoleEndpoint
): Promise<Pick<ConnectionTestResult, 'status' | 'message' | 'hint' | 'said' | 'hintSaid'>> {
	const versioned = /\/v\d+\/?$/.test(new URL(endpoint.baseURL).pathname);
	const pathHint = versioned
		? 'Check the base URL path.'
		: 'OpenAI-compatible base URLs usually end in /v1 (e.g. http://localhost:11434/v1).';
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
				message: `${endpoint.baseURL} does not know the model "${endpoint.model}".`,
				hint: `Models it lists: ${shown}.`,
				said: coded('conn_unknown_model', where),
				hintSaid: coded('conn_models_listed', { models: shown })
			};
		}
	} catch {
		// No model list either: most likely the path is wrong.
	}
	return {
		status: 'not_found',
		message: `${endpoint.baseURL} answered 404 for the model "${endpoint.model}": the model is unknown or the base URL path is wrong.`,
		hint: pathHint,
		said: coded('conn_not_found', where),
		hintSaid: coded(versioned ? 'conn_check_path' : 'conn_path_v1', {})
	};
}

/** The key, in part or encoded, never shows in what the page displays (see `redactKeys`). */
function redactResult(result: ConnectionTestResult, apiKey: string): ConnectionTestResult {
	const clean = (s?: string) => (s === undefined ? s : redactKeys(s, [apiKey]));
	return {
		...result,
		message: clean(result.message)!,
		hint: clean(result.hint),
		...(result.said ? { said: redactSaid(result.said, apiKey) } : {}),
		...(result.hintSaid ? { hintSaid: redactSaid(result.hintSaid, apiKey) } : {})
	};
}

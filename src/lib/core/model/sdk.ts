/**
 * The one way an OpenAI SDK client is built for an endpoint (the run's calls, the connection test,
 * the batch provider): the base URL split as the SDK wants it (`sdkTarget`), and a placeholder key
 * when the endpoint has none.
 */
import OpenAI, { type ClientOptions } from 'openai';
import { sdkTarget } from './base-url';

/**
 * Sent as the bearer token when a role has no key. Local servers (Ollama, llama.cpp, vLLM) need
 * none, but the SDK refuses to build a client without one; the placeholder lets the call go out,
 * and a real server that wants a key answers 401, which is reported as a refused key.
 */
export const NO_KEY = 'no-key';

/** What the caller chooses: retries, timeout, fetch. */
export type SdkOptions = Pick<ClientOptions, 'maxRetries' | 'timeout' | 'fetch'>;

export function openaiSdk(
	endpoint: { baseURL: string; apiKey: string },
	options: SdkOptions
): OpenAI {
	const target = sdkTarget(endpoint.baseURL);
	return new OpenAI({
		baseURL: target.baseURL,
		...(target.defaultQuery ? { defaultQuery: target.defaultQuery } : {}),
		apiKey: endpoint.apiKey || NO_KEY,
		dangerouslyAllowBrowser: true,
		...options
	});
}

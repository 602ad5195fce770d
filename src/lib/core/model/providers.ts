/**
 * Which provider a base URL most likely points at, and what to change there so that a web page
 * may call it (CORS): the fix the Models page shows after a refused call, as a code
 * (`../said.ts`) with its English.
 */
import { coded, type CoreText } from '../said';
import { english } from '../voice';

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

/** What to change at `provider` so that a page at `origin` (this page when none) may call it. */
export function corsHint(provider: Provider, origin = ''): string {
	return english(corsHintSaid(provider, origin));
}

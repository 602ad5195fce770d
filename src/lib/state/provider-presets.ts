/**
 * Provider presets of the Models page: each fills a base URL and suggests model ids. They are
 * conveniences only; any OpenAI-compatible endpoint works through `custom`. Kept apart from
 * `diagnose.ts` so the page can list them without loading the `openai` package.
 */

import { m } from '$lib/paraglide/messages';

export const PRESET_IDS = [
	'openai',
	'deepseek',
	'openrouter',
	'vllm',
	'ollama',
	'lmstudio',
	'llamacpp',
	'custom'
] as const;
export type PresetId = (typeof PRESET_IDS)[number];

export interface ProviderPreset {
	id: PresetId;
	/** Name shown in the select (in the interface language where it is not a product name). */
	readonly label: string;
	/** Filled into the base URL field when the preset is chosen; '' keeps what is there. */
	baseURL: string;
	/** Suggested model ids (a datalist), never chosen for the user. */
	models: readonly string[];
	/** False for local servers that ignore the key. */
	needsKey: boolean;
	/** One line under the fields, in the interface language: where the model ids come from, what to start. */
	readonly note: string;
}

/** A preset whose label and note are read in the interface language each time they are shown. */
function preset(
	id: PresetId,
	label: string | (() => string),
	baseURL: string,
	models: readonly string[],
	needsKey: boolean,
	note: () => string
): ProviderPreset {
	return {
		id,
		get label() {
			return typeof label === 'string' ? label : label();
		},
		baseURL,
		models,
		needsKey,
		get note() {
			return note();
		}
	};
}

export const PRESETS: Record<PresetId, ProviderPreset> = {
	openai: preset(
		'openai',
		'OpenAI',
		'https://api.openai.com/v1',
		['gpt-4.1', 'gpt-4.1-mini', 'gpt-4o', 'gpt-4o-mini'],
		true,
		m.models_note_openai
	),
	deepseek: preset(
		'deepseek',
		'DeepSeek',
		'https://api.deepseek.com/v1',
		['deepseek-chat', 'deepseek-reasoner'],
		true,
		m.models_note_deepseek
	),
	openrouter: preset(
		'openrouter',
		'OpenRouter',
		'https://openrouter.ai/api/v1',
		['deepseek/deepseek-r1', 'deepseek/deepseek-chat', 'qwen/qwen-2.5-72b-instruct'],
		true,
		m.models_note_openrouter
	),
	vllm: preset(
		'vllm',
		'vLLM',
		'http://localhost:8000/v1',
		['Qwen/Qwen2.5-7B-Instruct'],
		false,
		m.models_note_vllm
	),
	ollama: preset(
		'ollama',
		'Ollama',
		'http://localhost:11434/v1',
		['qwen2.5:7b', 'qwen2.5:14b', 'llama3.1:8b'],
		false,
		m.models_note_ollama
	),
	lmstudio: preset(
		'lmstudio',
		'LM Studio',
		'http://localhost:1234/v1',
		[],
		false,
		m.models_note_lmstudio
	),
	llamacpp: preset(
		'llamacpp',
		m.models_preset_llamacpp,
		'http://localhost:8080/v1',
		[],
		false,
		m.models_note_llamacpp
	),
	custom: preset('custom', m.models_preset_custom, '', [], false, m.models_note_custom)
};

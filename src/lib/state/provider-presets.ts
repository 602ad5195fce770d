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

export const PRESETS: Record<PresetId, ProviderPreset> = {
	openai: {
		id: 'openai',
		label: 'OpenAI',
		baseURL: 'https://api.openai.com/v1',
		models: ['gpt-4.1', 'gpt-4.1-mini', 'gpt-4o', 'gpt-4o-mini'],
		needsKey: true,
		get note() {
			return m.models_note_openai();
		}
	},
	deepseek: {
		id: 'deepseek',
		label: 'DeepSeek',
		baseURL: 'https://api.deepseek.com/v1',
		models: ['deepseek-chat', 'deepseek-reasoner'],
		needsKey: true,
		get note() {
			return m.models_note_deepseek();
		}
	},
	openrouter: {
		id: 'openrouter',
		label: 'OpenRouter',
		baseURL: 'https://openrouter.ai/api/v1',
		models: ['deepseek/deepseek-r1', 'deepseek/deepseek-chat', 'qwen/qwen-2.5-72b-instruct'],
		needsKey: true,
		get note() {
			return m.models_note_openrouter();
		}
	},
	vllm: {
		id: 'vllm',
		label: 'vLLM',
		baseURL: 'http://localhost:8000/v1',
		models: ['Qwen/Qwen2.5-7B-Instruct'],
		needsKey: false,
		get note() {
			return m.models_note_vllm();
		}
	},
	ollama: {
		id: 'ollama',
		label: 'Ollama',
		baseURL: 'http://localhost:11434/v1',
		models: ['qwen2.5:7b', 'qwen2.5:14b', 'llama3.1:8b'],
		needsKey: false,
		get note() {
			return m.models_note_ollama();
		}
	},
	lmstudio: {
		id: 'lmstudio',
		label: 'LM Studio',
		baseURL: 'http://localhost:1234/v1',
		models: [],
		needsKey: false,
		get note() {
			return m.models_note_lmstudio();
		}
	},
	llamacpp: {
		id: 'llamacpp',
		get label() {
			return m.models_preset_llamacpp();
		},
		baseURL: 'http://localhost:8080/v1',
		models: [],
		needsKey: false,
		get note() {
			return m.models_note_llamacpp();
		}
	},
	custom: {
		id: 'custom',
		get label() {
			return m.models_preset_custom();
		},
		baseURL: '',
		models: [],
		needsKey: false,
		get note() {
			return m.models_note_custom();
		}
	}
};

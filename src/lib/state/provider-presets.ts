/**
 * Provider presets of the Models page: each fills a base URL and suggests model ids. They are
 * conveniences only; any OpenAI-compatible endpoint works through `custom`. Kept apart from
 * `diagnose.ts` so the page can list them without loading the `openai` package.
 */

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
	/** Name shown in the select. */
	label: string;
	/** Filled into the base URL field when the preset is chosen; '' keeps what is there. */
	baseURL: string;
	/** Suggested model ids (a datalist), never chosen for the user. */
	models: readonly string[];
	/** False for local servers that ignore the key. */
	needsKey: boolean;
	/** One line under the fields: where the model ids come from, what to start. */
	note: string;
}

export const PRESETS: Record<PresetId, ProviderPreset> = {
	openai: {
		id: 'openai',
		label: 'OpenAI',
		baseURL: 'https://api.openai.com/v1',
		models: ['gpt-4.1', 'gpt-4.1-mini', 'gpt-4o', 'gpt-4o-mini'],
		needsKey: true,
		note: 'OpenAI usually refuses calls from web pages (CORS); the CLI always works.'
	},
	deepseek: {
		id: 'deepseek',
		label: 'DeepSeek',
		baseURL: 'https://api.deepseek.com/v1',
		models: ['deepseek-chat', 'deepseek-reasoner'],
		needsKey: true,
		note: 'DeepSeek names its models deepseek-chat and deepseek-reasoner; the paper names (DeepSeek-V4.1-Flash, DeepSeek-R1) are not API ids.'
	},
	openrouter: {
		id: 'openrouter',
		label: 'OpenRouter',
		baseURL: 'https://openrouter.ai/api/v1',
		models: ['deepseek/deepseek-r1', 'deepseek/deepseek-chat', 'qwen/qwen-2.5-72b-instruct'],
		needsKey: true,
		note: 'OpenRouter model ids carry the vendor prefix (vendor/model).'
	},
	vllm: {
		id: 'vllm',
		label: 'vLLM',
		baseURL: 'http://localhost:8000/v1',
		models: ['Qwen/Qwen2.5-7B-Instruct'],
		needsKey: false,
		note: 'The model id is the name given to vllm serve (or its --served-model-name).'
	},
	ollama: {
		id: 'ollama',
		label: 'Ollama',
		baseURL: 'http://localhost:11434/v1',
		models: ['qwen2.5:7b', 'qwen2.5:14b', 'llama3.1:8b'],
		needsKey: false,
		note: 'Ollama needs OLLAMA_ORIGINS set to this page’s origin before the browser may call it.'
	},
	lmstudio: {
		id: 'lmstudio',
		label: 'LM Studio',
		baseURL: 'http://localhost:1234/v1',
		models: [],
		needsKey: false,
		note: 'Start the server in LM Studio’s Developer tab and turn on “Enable CORS”.'
	},
	llamacpp: {
		id: 'llamacpp',
		label: 'llama.cpp server',
		baseURL: 'http://localhost:8080/v1',
		models: [],
		needsKey: false,
		note: 'llama-server answers with the one model it loaded, whatever id is sent.'
	},
	custom: {
		id: 'custom',
		label: 'Custom URL',
		baseURL: '',
		models: [],
		needsKey: false,
		note: 'Any server that speaks the OpenAI chat completions API; the base URL usually ends in /v1.'
	}
};

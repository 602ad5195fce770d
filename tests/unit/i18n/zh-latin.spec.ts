/**
 * A Chinese message keeps English only for what is not translated: names of products, files,
 * fields, flags and protocols, the paper's metric and stage names, units. Any other Latin word in
 * a zh-CN message is English left in the interface (the LCA badge once read "作答（judgment）").
 * A new term goes on the list below, under its reason.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../../..');

const KEPT = new Set(
	[
		// The benchmark's and the paper's names: stages, metrics, confusion cells, statistics.
		'LexPilot LexAwN LCA DCG LJP QWK AC1 Kappa Macro-F1 F1 F1_U F1_C Acc_C Acc_U TP TN FP FN SD ci p n N',
		'Direct Gold Interaction gen dcg lca ljp-direct ljp-gold ljp-interaction bootstrap ddof',
		// Products, providers, models and their servers.
		'Workbench OpenAI OpenRouter DeepSeek DeepSeek-R1 DeepSeek-V4.1-Flash deepseek-chat',
		'deepseek-reasoner Ollama ollama OLLAMA_ORIGINS LM Studio vLLM vllm llama.cpp llama-server',
		'Chat Completions Developer Windows macOS IndexedDB npm lexpilot',
		// Formats, protocols, encodings and HTTP.
		'API CLI CORS CSV GBK HTML HTTP JSON LaTeX XeLaTeX Markdown PNG SVG SHA-256 UTF-8 URL ID',
		'MB CJK zip http https localhost host origin api.openai.com v1 GET POST OPTIONS',
		'Authorization Bearer Content-Type Access-Control-Allow-Origin x-stainless- fetch token',
		'Base Enable password lock',
		// Files, folders, fields and flags as the harness and its files spell them.
		'AwN_gen Force_ask_gen Force_judge_gen eval_results LCA_results.jsonl calls.jsonl',
		'manifest.json PROTOCOL.md a1 a1.jsonl case_number key_details history content role',
		'user assistant model object length finish_reason max_tokens code_sha256 input_sha256',
		'prompts_sha256 sha256 dataset.selected_case_numbers simulated run runs run-id run1 run2 as',
		'allowed-origins api-prefix served-model-name serve vendor results auto batch files allow-missing',
		'record_sha256 cause_of_action model-a model-b reviews jsonl',
		// Flags the CLI's refusals name (the file store's output root, compare's case limit, results'
		// --judges), and
		// the prompt pack's fields its check names.
		'output-root limit name version judges',
		// Names Windows reserves for files.
		'CON PRN AUX NUL COM0 COM9 COM0-COM9 LPT0 LPT9 LPT0-LPT9',
		// Statisticians' names on their methods; the Batch API's fields.
		"Cohen's Cohen Rogan Gladen Rogan–Gladen Kendall Holm Wilson Gwet custom_id",
		// The leaderboard's mark of a Wilson interval, as † marks a tie.
		'W',
		// Keyboard keys the review queue names.
		'S J K Enter Esc',
		// Letters as names (runs A and B, a sample size, units).
		'A B a b d r s u Token',
		// Batch mode: the Batch API's resource, cluster tools, CLI flags and their values.
		'batches run-batch Ray batch files allow-missing batch-max-tokens'
	].flatMap((line) => line.split(' '))
);

function zhFiles(dir: string): string[] {
	return readdirSync(dir).flatMap((name) => {
		const path = join(dir, name);
		if (statSync(path).isDirectory()) return zhFiles(path);
		return name === 'zh-CN.json' ? [path] : [];
	});
}

/** The Latin words of every zh-CN message, placeholders left out, with where each is. */
function latinWords(file: string): { word: string; where: string }[] {
	const messages = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
	return Object.entries(messages)
		.filter(([key]) => !key.startsWith('$'))
		.flatMap(([key, value]) => {
			const text = JSON.stringify(value).replace(/\{\w+\}/g, ' ');
			return [...text.matchAll(/[A-Za-z][A-Za-z0-9_.'-]*/g)]
				.map((m) => m[0].replace(/\.$/, ''))
				.filter(
					(word) => !/^(match|selectors|declarations|countPlural|plural|n=\d|one|other)$/.test(word)
				)
				.map((word) => ({ word, where: `${file.slice(ROOT.length + 1)}: ${key}` }));
		});
}

describe('Chinese messages', () => {
	it('keep English only for names, files, fields, formats and the paper’s terms', () => {
		const files = zhFiles(join(ROOT, 'messages'));
		expect(files.length).toBeGreaterThanOrEqual(8);
		const left = files
			.flatMap(latinWords)
			.filter(({ word }) => !KEPT.has(word))
			.map(({ word, where }) => `${where}: ${word}`);
		expect(left).toEqual([]);
	});
});

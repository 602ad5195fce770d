/**
 * An output root in the canonical layout holding runs made of `randomRun` records, for CLI
 * and report tests that need more cases than the hand-computed fixtures have.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { manifestPath, modelDirName, stageFilePath } from '../../../src/lib/core/layout';
import type { StageFile } from '../../../src/lib/core/records';
import { randomRun } from './random-records';

export interface RandomRunSpec {
	runId: string;
	model: string;
	/** Seed of the labels. */
	seed: number;
	skill?: number;
	/** Case numbers this run selects. @default c1 … c<cases> */
	caseNumbers?: string[];
	/** 64 hex digits. @default 'a' × 64 */
	datasetSha256?: string;
	temperature?: number;
}

export const RANDOM_CATEGORIES = { 合同纠纷: '合同纠纷', 婚姻家庭纠纷: '婚姻家庭纠纷' };
const HEX = (c: string) => c.repeat(64);

/** Writes the runs into a fresh temporary folder and returns its path. */
export async function writeRandomRuns(cases: number, runs: RandomRunSpec[]): Promise<string> {
	const root = mkdtempSync(join(tmpdir(), 'lexpilot-random-runs-'));
	const write = (path: string, text: string) => {
		const full = join(root, ...path.split('/'));
		mkdirSync(dirname(full), { recursive: true });
		writeFileSync(full, text);
	};
	for (const spec of runs) {
		const caseNumbers = spec.caseNumbers ?? Array.from({ length: cases }, (_, i) => `c${i + 1}`);
		const run = { runId: spec.runId, modelDir: await modelDirName(spec.model) };
		const records = randomRun({
			cases: caseNumbers.length,
			seed: spec.seed,
			skill: spec.skill,
			caseNumbers
		});
		const manifest = {
			schema_version: 1,
			tool: { name: 'lexpilot-workbench', version: '0.1.0' },
			run_id: spec.runId,
			model_dir: run.modelDir,
			created_at: '2025-03-01T08:00:00.000Z',
			dataset: {
				sha256: spec.datasetSha256 ?? HEX('a'),
				n_cases: cases,
				selected_case_numbers: caseNumbers,
				history_fields: {
					complete: 'complete_consultation',
					underspecified: 'underspecified_consultation'
				}
			},
			code_sha256: HEX('b'),
			prompts_sha256: HEX('c'),
			models: { evaluated: spec.model, user: 'user-model', judge: 'judge-model' },
			endpoints: { evaluated: 'https://x/v1', user: 'https://x/v1', judge: 'https://x/v1' },
			settings: {
				temperature: spec.temperature ?? 0.7,
				judge_temperature: 0.1,
				max_tokens: 8192,
				timeout_s: 120,
				retries: 3
			},
			categories: RANDOM_CATEGORIES,
			simulated: false
		};
		write(manifestPath(run), `${JSON.stringify(manifest, null, 2)}\n`);
		const extra = { input_sha256: HEX('d') };
		const files: Partial<Record<StageFile, object[]>> = {
			LCA_results: records.LCA_results.map((r) => ({ ...r, response: 'r', ...extra })),
			DCG_results: records.DCG_results.map((r) => ({
				...r,
				success: r.round_labels.includes('是'),
				...extra
			})),
			...Object.fromEntries(
				(['LJP_direct', 'LJP_gold', 'LJP_interaction'] as const).map((f) => [
					f,
					records[f].map((r) => ({
						...r,
						claims: r.gold.map((_, i) => `claim ${i + 1}`),
						...extra
					}))
				])
			)
		};
		for (const [file, list] of Object.entries(files)) {
			write(
				stageFilePath(run, file as StageFile),
				list.map((r) => `${JSON.stringify(r)}\n`).join('')
			);
		}
	}
	return root;
}

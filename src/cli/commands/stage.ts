/**
 * The generation commands of PROTOCOL.md §8: `gen`, `lca`, `dcg`, `ljp-direct`, `ljp-gold`,
 * `ljp-interaction` and `ljp` (the three LJP stages). Each reads the dataset, opens or resumes
 * the run under --output-root, runs its stages and prints where the records went. A resume of a
 * sealed run on the same dataset bytes does not parse the dataset (`../dataset-seal.ts`).
 *
 * `--simulated` (an addition of this workbench, PROTOCOL.md §8) answers every role with the
 * offline simulated provider: no network, no key, deterministic text. The manifest records
 * `simulated: true`, so such a run is never compared with a real one.
 *
 * One file: the seven stage commands share one flow. Splitting it by concern is still to do.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { runStages, type RunStagesOptions, type RunStagesResult } from '../../lib/core/engine';
import { DEFAULT_TOOL, type ToolInfo } from '../../lib/core/engine/manifest';
import { RunProgress } from '../../lib/core/engine/progress';
import type { StageName } from '../../lib/core/engine/types';
import { publicBaseUrl } from '../../lib/core/model/base-url';
import { createOpenAIClient, type OpenAIClientOptions } from '../../lib/core/model/openai-client';
import type { ModelClient, RoleEndpoint } from '../../lib/core/model/types';
import { ROLES, type Role } from '../../lib/core/records';
import {
	SIMULATED_ENDPOINT,
	SIMULATED_MODEL,
	SIMULATED_ROLE_MODELS
} from '../../lib/core/run-config';
import { createSimulatedClient } from '../../lib/core/simulated';
import { DEFAULT_PROMPT_PACK, parsePromptPack, type PromptPack } from '../../lib/core/prompts';
import { UsageError } from '../../lib/core/errors';
import { escapeControl } from '../../lib/core/text/escape-control';
import { FsStore, type DatasetSeal } from '../../lib/adapters/fs-store';
import { createNodeFetch } from '../../lib/adapters/node-fetch';
import { manifestPath, modelDirName, RUN_ID_PATTERN } from '../../lib/core/layout';
import { datasetFromFacts } from '../../lib/core/engine/seal';
import type { RunDataset } from '../../lib/core/engine/types';
import {
	GENERATION_OPTIONS,
	GENERATION_OPTIONS_HELP,
	generationOptionsFrom,
	type GenerationFlagValues,
	type GenerationOptions
} from '../args';
import { readValidDataset } from '../dataset-file';
import {
	categoriesSha256,
	codeIdentity,
	datasetSealKey,
	matchingSealedDataset,
	sealedDatasetOf,
	type DatasetReadInputs
} from '../dataset-seal';
import { createProgressPrinter } from '../progress';
import type { CliIo, CommandHandler } from '../types';
import { name as packageName, version as packageVersion } from '../../../package.json';

export const OPTIONS = {
	...GENERATION_OPTIONS,
	simulated: { type: 'boolean' },
	prompts: { type: 'string' }
} as const;

export const EXIT_CODES = `Exit codes: 0 the stage completed; 1 it stopped on an API or judge failure (finished
cases are kept: run the same command again to resume); 2 bad usage, an invalid dataset, an
output root that cannot be written, or saved records / a manifest that do not fit these options.`;

export const SIMULATED_HELP = `  --simulated              answer every role offline with the deterministic simulated
                           provider (no network or key; model defaults to "${SIMULATED_MODEL}";
                           user and judge are "${SIMULATED_ROLE_MODELS.user}" and
                           "${SIMULATED_ROLE_MODELS.judge}"; the manifest says simulated: true)
  --prompts FILE           prompt pack JSON exported from the workbench's Prompts page
                           [the built-in pack]; its hash is part of the manifest, so a
                           run keeps one pack from its first stage to its last`;

function stageCommand(
	name: string,
	stages: readonly StageName[],
	summary: string,
	description: string
): CommandHandler {
	return {
		summary,
		usage: `Usage: npx lexpilot ${name} --run-id NAME --dataset FILE --model ID [options]

${description}

${GENERATION_OPTIONS_HELP.trimEnd()}
${SIMULATED_HELP}

${EXIT_CODES}
`,
		run: (args, io) => runCommand(stages, args, io)
	};
}

/** A generation command's arguments, resolved: what the run will record and use. */
export interface StageArgs {
	options: GenerationOptions;
	simulated: boolean;
	/** The dataset path as typed (or the default file's name), for messages. */
	datasetLabel: string;
	/** `--prompts FILE` as typed, if given. */
	promptsPath: string | undefined;
	/** Model ids per role, as the manifest records them. */
	models: Record<Role, string>;
	/**
	 * Base URLs per role as the manifest records them: query values and keys hidden
	 * (`publicBaseUrl`), `simulated://offline` when simulated.
	 */
	endpoints: Record<Role, string>;
	/** The keys given, to be hidden wherever a URL or an error is shown. */
	keys: string[];
}

/** The values of {@link OPTIONS} as `parseArgs` gives them. */
export type StageValues = GenerationFlagValues & { simulated?: boolean; prompts?: string };

/**
 * Parses the arguments of a generation command (after its name): the shared options of
 * `args.ts` plus `--simulated` and `--prompts`. Throws a UsageError naming the bad flag.
 */
export function parseStageArgs(args: string[], io: Pick<CliIo, 'env' | 'cwd'>): StageArgs {
	const { values } = parseArgs({ args, options: OPTIONS, strict: true });
	return stageArgsFrom(values, io);
}

/**
 * The shared options of every generation command (the stage commands and `run`), resolved;
 * `resolve` is `generationOptionsFrom`, which `run` wraps to explain its `--concurrency`.
 */
export function stageArgsFrom(
	values: StageValues,
	io: Pick<CliIo, 'env' | 'cwd'>,
	resolveOptions: typeof generationOptionsFrom = generationOptionsFrom
): StageArgs {
	const simulated = values.simulated === true;
	// LEXPILOT_MODEL names a real model; a simulated run must not borrow its folder.
	const options = resolveOptions(
		simulated && values.model === undefined ? { ...values, model: SIMULATED_MODEL } : values,
		io
	);
	if (simulated) {
		for (const r of ['user', 'judge'] as const) {
			// The simulated provider plays these roles: a real model id would be a false record.
			if (values[`${r}-model`] !== undefined) {
				throw new UsageError(
					`--${r}-model names a real model; a --simulated run's ${r} is "${SIMULATED_ROLE_MODELS[r]}"`
				);
			}
			options.roles[r] = { ...options.roles[r], model: SIMULATED_ROLE_MODELS[r] };
		}
	}
	const keys = ROLES.map((r) => options.roles[r].apiKey).filter((k) => k.length > 0);
	const args = {
		options,
		simulated,
		datasetLabel: options.datasetChoice.label,
		promptsPath: values.prompts
	};
	return argsWithRoles(args, options.roles, keys);
}

/**
 * `args` with these roles (a run plan's model, its own endpoint): the models, and the endpoints
 * as the manifest records them (no query values, no `keys`), recomputed from them.
 */
export function argsWithRoles(
	args: Omit<StageArgs, 'models' | 'endpoints' | 'keys'>,
	roles: Record<Role, RoleEndpoint>,
	keys: string[]
): StageArgs {
	const models = Object.fromEntries(ROLES.map((r) => [r, roles[r].model])) as Record<Role, string>;
	// The manifest (which bundles ship) records each base URL without query values or keys.
	const endpoints = Object.fromEntries(
		ROLES.map((r) => [
			r,
			args.simulated ? SIMULATED_ENDPOINT : publicBaseUrl(roles[r].baseURL, keys)
		])
	) as Record<Role, string>;
	return { ...args, options: { ...args.options, roles }, models, endpoints, keys };
}

/** What a generation command runs on. */
export interface StageInputs {
	/** The loaded dataset, or placeholders from the run's dataset seal (`loadDataset` set). */
	dataset: RunDataset;
	pack: PromptPack;
	/** With placeholders: loads the dataset, for the engine when a stage is not sealed. */
	loadDataset?: () => Promise<RunDataset>;
	/** What the file store keeps with the run's stage seals, for the next start. */
	datasetSeal?: DatasetSeal;
}

/**
 * The dataset (its warnings printed) and the prompt pack a generation command runs with. When
 * the run's dataset seal holds for the file as it is now (`dataset-seal.ts`), the dataset is not
 * parsed: the seal's warnings are printed and the engine gets placeholders and the loader.
 */
export async function readStageInputs(
	args: StageArgs,
	io: CliIo,
	/** Reads and checks the dataset; a run plan passes one that reads it once for all its runs. */
	read: typeof readValidDataset = readValidDataset
): Promise<StageInputs> {
	const { options, datasetLabel, promptsPath } = args;
	const readOptions = {
		label: datasetLabel,
		notFound: options.datasetChoice.notFound,
		historyFields: options.historyFields,
		categoriesPath: options.categoriesPath
	};
	const sealInputs: DatasetReadInputs = {
		path: options.dataset,
		historyFields: options.historyFields,
		categoriesPath: options.categoriesPath,
		code: await codeIdentity()
	};
	const saved = RUN_ID_PATTERN.test(options.runId)
		? await new FsStore(options.outputRoot)
				.readDatasetSeal({
					runId: options.runId,
					modelDir: await modelDirName(args.models.evaluated)
				})
				.catch(() => null)
		: null;
	const sealed = await matchingSealedDataset(saved, sealInputs);
	let inputs: Omit<StageInputs, 'pack'>;
	if (sealed !== null) {
		for (const w of sealed.warnings) io.stderr(`warning: ${escapeControl(w)}\n`);
		inputs = {
			dataset: datasetFromFacts(sealed),
			loadDataset: async () => (await read(options.dataset, readOptions)).dataset,
			datasetSeal: saved!
		};
	} else {
		const categoriesBefore = await categoriesSha256(sealInputs);
		const { dataset, warnings } = await read(options.dataset, readOptions);
		for (const w of warnings) io.stderr(`warning: ${escapeControl(w.text)}\n`);
		const categories = await categoriesSha256(sealInputs);
		const facts = sealedDatasetOf(dataset, warnings);
		const code = sealInputs.code;
		inputs = { dataset };
		// Sealed only when the category file read is the one hashed on both sides of the load.
		if (facts && code !== null && categories !== undefined && categories === categoriesBefore) {
			inputs.datasetSeal = {
				key: datasetSealKey({ ...sealInputs, code }, dataset.sha256, categories),
				facts
			};
		}
	}
	// A relative --prompts is taken from the user's directory.
	const pack =
		promptsPath === undefined
			? DEFAULT_PROMPT_PACK
			: await readPack(resolve(io.cwd, promptsPath), promptsPath);
	return { ...inputs, pack };
}

/** The engine's options that do not depend on the scheduler (`runStages` or `runAll`). */
export type EngineInputs = Omit<
	RunStagesOptions,
	'stages' | 'concurrency' | 'onProgress' | 'progress'
>;

/** The engine's inputs of a generation command: the run, its dataset, models and output root. */
export function engineInputs(
	args: StageArgs,
	{ dataset, pack, loadDataset, datasetSeal }: StageInputs,
	client: ModelClient,
	io: CliIo
): EngineInputs {
	const { options } = args;
	return {
		dataset,
		...(loadDataset ? { loadDataset } : {}),
		limit: options.limit ?? undefined,
		client,
		store: new FsStore(options.outputRoot, {
			onNotice: (m) => io.stderr(`note: ${escapeControl(m)}\n`),
			...(datasetSeal ? { datasetSeal } : {})
		}),
		runId: options.runId,
		models: args.models,
		endpoints: args.endpoints,
		settings: options.settings,
		pack,
		signal: io.signal,
		keys: args.keys,
		tool: toolInfo()
	};
}

/**
 * The model client of a generation command: the simulated provider, or the roles' endpoints
 * with the run's retries and timeout, `limits` in flight per endpoint, and each retry counted
 * (`onRetry`) and, off a terminal, logged with its reason.
 */
export function stageClient(
	args: StageArgs,
	pack: PromptPack,
	io: CliIo,
	limits: Pick<OpenAIClientOptions, 'concurrency' | 'limiters'>,
	onRetry: () => void
): ModelClient {
	if (args.simulated) {
		// A profile (`simulated-strong`, …) answers per model and run; plain `simulated` as always.
		return createSimulatedClient({ pack, model: args.models.evaluated, runId: args.options.runId });
	}
	const { settings } = args.options;
	return createOpenAIClient(args.options.roles, {
		retries: settings.retries,
		timeoutMs: settings.timeout_s * 1000,
		...limits,
		// node:http instead of Node's fetch: a third of the CPU per call (adapters/node-fetch.ts).
		fetch: createNodeFetch(),
		onEvent: (event) => {
			if (event.type !== 'retry') return;
			onRetry();
			// On a TTY the bar counts retries; a log gets the reason of each.
			if (!io.isTTY) {
				io.stderr(
					`retry: case ${escapeControl(String(event.caseNumber))}, ${event.role} model ` +
						`${escapeControl(event.model)}: ${escapeControl(event.reason)}; ` +
						`attempt ${event.attempt + 1} of ${event.maxAttempts} in ${(event.delayMs / 1000).toFixed(1)}s\n`
				);
			}
		}
	});
}

async function runCommand(
	stages: readonly StageName[],
	args: string[],
	io: CliIo
): Promise<number> {
	const parsed = parseStageArgs(args, io);
	const { options, simulated } = parsed;
	const inputs = await readStageInputs(parsed, io);
	const printer = createProgressPrinter(io);
	const progress = new RunProgress(printer.onProgress);
	const client = stageClient(parsed, inputs.pack, io, { concurrency: options.concurrency }, () =>
		progress.noteRetry()
	);

	let result: RunStagesResult;
	try {
		result = await runStages({
			...engineInputs(parsed, inputs, client, io),
			stages,
			concurrency: options.concurrency,
			progress
		});
	} finally {
		printer.end();
	}
	for (const w of result.warnings) io.stderr(`warning: ${escapeControl(w)}\n`);
	io.stdout(summaryText(result, options.outputRoot, simulated));
	return 0;
}

/** Reads a prompt pack file (`path`, resolved; `label` as the user typed it); every problem names it. */
export async function readPack(path: string, label: string): Promise<PromptPack> {
	let text: string;
	try {
		text = await readFile(path, 'utf8');
	} catch (e) {
		throw new UsageError(
			`--prompts ${escapeControl(label)}: cannot read the file (${escapeControl((e as Error).message)})`
		);
	}
	try {
		return parsePromptPack(text);
	} catch (e) {
		throw new UsageError(`--prompts ${escapeControl(label)}: ${(e as Error).message}`);
	}
}

export function summaryText(
	result: RunStagesResult,
	outputRoot: string,
	simulated: boolean
): string {
	const { run } = result;
	const lines = [
		`${result.created ? 'Started' : 'Resumed'} run ${escapeControl(run.runId)} of ` +
			`${escapeControl(result.manifest.models.evaluated)}` +
			`${simulated ? ' (simulated provider, offline)' : ''} under ${escapeControl(outputRoot)}`
	];
	for (const s of result.stages) {
		lines.push(`  ${s.stage}: ${s.total} cases (${s.generated} generated, ${s.resumed} resumed)`);
	}
	const files = [manifestPath(run), ...result.stages.flatMap((s) => s.files)];
	lines.push('Files:', ...files.map((f) => `  ${escapeControl(f)}`));
	return `${lines.join('\n')}\n`;
}

/** Name and version of this package, for the manifest (inlined when the CLI is bundled). */
export function toolInfo(): ToolInfo {
	return {
		name: packageName || DEFAULT_TOOL.name,
		version: packageVersion || DEFAULT_TOOL.version
	};
}

export const gen = stageCommand(
	'gen',
	['gen'],
	'LexAwN responses, LCA labels and the clarification interaction',
	`Generates one LexAwN response after each complete and underspecified history (a1), labels
each with the LCA judge, and continues the underspecified history with the user model for up
to 3 clarification rounds plus a forced final prediction. Writes a1.jsonl, LCA_results.jsonl
and interaction.jsonl.`
);

export const lca = stageCommand(
	'lca',
	['lca'],
	're-judge saved a1 responses (completes missing LCA results)',
	`Labels the saved a1 responses of the run that have no LCA result yet, without generating any
new response; needs a1.jsonl complete (run gen first). A saved label is never overwritten: to
re-judge everything with another judge, use a new run id.`
);

export const dcg = stageCommand(
	'dcg',
	['dcg'],
	'two forced clarification questions, judged against the hidden facts',
	`Asks two forced clarification questions on each underspecified history (with a user-model
reply between them) and judges each against the focal points and key details. Independent of
gen. Writes force_ask.jsonl and DCG_results.jsonl.`
);

export const ljpDirect = stageCommand(
	'ljp-direct',
	['ljp-direct'],
	'direct prediction from the underspecified history, then verdicts',
	`Predicts from each underspecified history with the force_judge prompt and extracts one verdict
per claim. Writes a1_direct.jsonl and LJP_direct.jsonl.`
);

export const ljpGold = stageCommand(
	'ljp-gold',
	['ljp-gold'],
	'direct prediction from the complete history, then verdicts',
	`Predicts from each complete history with the force_judge prompt (a dedicated response, never
an a1 response) and extracts one verdict per claim. Writes a1_force_judge.jsonl and
LJP_gold.jsonl.`
);

export const ljpInteraction = stageCommand(
	'ljp-interaction',
	['ljp-interaction'],
	'verdicts from the final response of each saved interaction',
	`Extracts one verdict per claim from the final response of each interaction; needs gen complete
for the selected cases. Writes LJP_interaction.jsonl.`
);

export const ljp = stageCommand(
	'ljp',
	['ljp-direct', 'ljp-gold', 'ljp-interaction'],
	'the three LJP stages: direct, gold, interaction',
	`Runs ljp-direct, ljp-gold and ljp-interaction in this order. ljp-interaction needs gen
complete; without it, ljp-direct and ljp-gold (which do not read gen) still run and are saved,
then the command stops with exit 2. Saved records are checked before any call.`
);

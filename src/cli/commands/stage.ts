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
 * The pieces of a generation command live beside it: its arguments (`stage-args.ts`), inputs
 * (`stage-inputs.ts`, `prompt-pack-file.ts`), engine inputs and client (`stage-engine.ts`,
 * `stage-client.ts`) and texts (`stage-texts.ts`); `run`, `rejudge` and run plans use them too.
 */
import { LimiterPool } from '../../lib/core/model/limiter';
import {
	STAGE_ALIASES,
	STAGE_NAMES,
	stagesNamed,
	type StageAlias,
	type StageName
} from '../../lib/core/protocol';
import { GENERATION_OPTIONS_HELP } from '../args';
import { createProgressPrinter } from '../progress';
import { runOne } from '../session/one-run';
import type { CliIo, CommandHandler } from '../types';
import { parseStageArgs } from './stage-args';
import { readStageInputs } from './stage-inputs';
import { stageClient } from './stage-client';
import { engineInputs } from './stage-engine';
import { EXIT_CODES, SIMULATED_HELP, summaryText } from './stage-texts';

export {
	argsWithRoles,
	OPTIONS,
	parseStageArgs,
	stageArgsFrom,
	type StageArgs,
	type StageValues
} from './stage-args';
export { readPlanInputs, readStageInputs, type StageInputs } from './stage-inputs';
export { readPack } from './prompt-pack-file';
export { engineInputs, toolInfo, type EngineInputs } from './stage-engine';
export { loggedLimiters, stageClient } from './stage-client';
export { EXIT_CODES, SIMULATED_HELP, summaryText } from './stage-texts';

/** The command `name`: a stage, or an alias for several (`ljp`), as `../../lib/core/protocol` declares. */
function stageCommand(name: string, summary: string, description: string): CommandHandler {
	const stages = stagesNamed(name)!;
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

async function runCommand(
	stages: readonly StageName[],
	args: string[],
	io: CliIo
): Promise<number> {
	const parsed = parseStageArgs(args, io);
	const { options, simulated } = parsed;
	const inputs = await readStageInputs(parsed, io);
	const printer = createProgressPrinter(io);
	const limiters = new LimiterPool({ max: options.concurrency });
	let retries: { noteRetry(): void } | null = null;
	const client = stageClient(parsed, inputs.pack, io, { limiters }, () => retries?.noteRetry());
	const end = await runOne(
		{
			...engineInputs(parsed, inputs, client, io),
			mode: { kind: 'interactive', stages, inTurn: true, onStage: printer.onProgress }
		},
		{ limiters, signal: io.signal, onTracker: (_, t) => (retries = t) },
		io,
		printer
	);
	// A stage command has no spending cap: a session of one run, never capped.
	if (end.capped) return end.code;
	io.stdout(summaryText(end.result, options.outputRoot, simulated));
	return 0;
}

/** What `--help` says of each stage command, by name: every stage and alias of the protocol. */
const TEXTS: Record<StageName | StageAlias, readonly [summary: string, description: string]> = {
	gen: [
		'LexAwN responses, LCA labels and the clarification interaction',
		`Generates one LexAwN response after each complete and underspecified history (a1), labels
each with the LCA judge, and continues the underspecified history with the user model for up
to 3 clarification rounds plus a forced final prediction. Writes a1.jsonl, LCA_results.jsonl
and interaction.jsonl.`
	],
	lca: [
		're-judge saved a1 responses (completes missing LCA results)',
		`Labels the saved a1 responses of the run that have no LCA result yet, without generating any
new response; needs a1.jsonl complete (run gen first). A saved label is never overwritten: to
re-judge everything with another judge, use a new run id.`
	],
	dcg: [
		'two forced clarification questions, judged against the hidden facts',
		`Asks two forced clarification questions on each underspecified history (with a user-model
reply between them) and judges each against the focal points and key details. Independent of
gen. Writes force_ask.jsonl and DCG_results.jsonl.`
	],
	'ljp-direct': [
		'direct prediction from the underspecified history, then verdicts',
		`Predicts from each underspecified history with the force_judge prompt and extracts one verdict
per claim. Writes a1_direct.jsonl and LJP_direct.jsonl.`
	],
	'ljp-gold': [
		'direct prediction from the complete history, then verdicts',
		`Predicts from each complete history with the force_judge prompt (a dedicated response, never
an a1 response) and extracts one verdict per claim. Writes a1_force_judge.jsonl and
LJP_gold.jsonl.`
	],
	'ljp-interaction': [
		'verdicts from the final response of each saved interaction',
		`Extracts one verdict per claim from the final response of each interaction; needs gen complete
for the selected cases. Writes LJP_interaction.jsonl.`
	],
	ljp: [
		'the three LJP stages: direct, gold, interaction',
		`Runs ljp-direct, ljp-gold and ljp-interaction in this order. ljp-interaction needs gen
complete; without it, ljp-direct and ljp-gold (which do not read gen) still run and are saved,
then the command stops with exit 2. Saved records are checked before any call.`
	]
};

/** The stage commands, in protocol order (each stage, then each alias), for `--help` to list. */
export const stageCommands: Record<string, CommandHandler> = Object.fromEntries(
	[...STAGE_NAMES, ...(Object.keys(STAGE_ALIASES) as StageAlias[])].map((name) => {
		const [summary, description] = TEXTS[name];
		return [name, stageCommand(name, summary, description)];
	})
);

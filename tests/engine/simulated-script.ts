/**
 * A task-aware script for the fake OpenAI server: it tells each prompt's task from the default
 * prompt pack and answers with the simulated provider, so every stage can run over real HTTP.
 *
 *   npx tsx tests/fake-openai/cli.ts --script tests/engine/simulated-script.ts
 */
import { DEFAULT_PROMPT_PACK } from '../../src/lib/core/prompts/default-pack';
import { taskOfPrompt } from '../../src/lib/core/prompts/fill';
import { TEMPLATE_NAMES } from '../../src/lib/core/prompts/pack';
import { simulateResponse } from '../../src/lib/core/simulated/responder';
import type { TaskScript } from '../fake-openai/by-task';
import type { Handler } from '../fake-openai/server';

const answer =
	(task: (typeof TEMPLATE_NAMES)[number]): Handler =>
	({ prompt }) => ({ content: simulateResponse(task, prompt) });

export const simulatedScript: TaskScript = {
	detect: ({ prompt }) => taskOfPrompt(prompt, DEFAULT_PROMPT_PACK),
	responders: Object.fromEntries(TEMPLATE_NAMES.map((t) => [t, answer(t)]))
};

export default simulatedScript;

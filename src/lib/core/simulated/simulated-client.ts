/** The offline provider: a `ModelClient` answering every task from `simulateResponse`. */
import { ModelCallError } from '../errors';
import { coded } from '../said';
import { english } from '../voice';
import type { ChatRequest, ChatResult, ModelClient, Task } from '../model/types';
import type { ConnectionTestResult } from '../model/diagnose';
import type { Role } from '../records';
import { SIMULATED_ENDPOINT } from '../run-defaults';
import { abortableSleep } from '../model/abortable';
import { DEFAULT_PROMPT_PACK } from '../prompts/default-pack';
import type { PromptPack } from '../prompts/pack';
import { simulatedProfile } from './profiles';
import { fnv1a, simulateResponse } from './responder';

export interface SimulatedClientOptions {
	/**
	 * The pack the prompts are filled from, so slot values (key details, claims) can be read back.
	 * @default DEFAULT_PROMPT_PACK
	 */
	pack?: PromptPack;
	/**
	 * Delay per call in milliseconds, fixed or a `[min, max]` range picked by the prompt's hash,
	 * so a demo shows progress and concurrency the way a real provider would.
	 * @default 0
	 */
	latencyMs?: number | [number, number];
	/**
	 * The evaluated model: a profile's id (`SIMULATED_PROFILES`: `simulated-strong`, …) answers as
	 * that profile, differently in each run (`runId`); any other id answers the plain way, the
	 * same in every run. @default the plain answers
	 */
	model?: string;
	/** The run, so a profile's repetitions differ a little. @default '' */
	runId?: string;
}

export function createSimulatedClient(options: SimulatedClientOptions = {}): ModelClient {
	const pack = options.pack ?? DEFAULT_PROMPT_PACK;
	const latency = options.latencyMs ?? 0;
	const profile = simulatedProfile(options.model);
	const variant = profile
		? { profile, salt: `${options.model}\u0000${options.runId ?? ''}` }
		: undefined;
	return {
		simulated: true,
		async complete(request: ChatRequest): Promise<ChatResult> {
			const delay = Array.isArray(latency)
				? latency[0] + (fnv1a(request.prompt) % Math.max(1, latency[1] - latency[0] + 1))
				: latency;
			await wait(delay, request);
			const response = simulateResponse(request.task, request.prompt, pack, variant);
			return {
				response,
				reasoning: null,
				finishReason: 'stop',
				usage: {
					promptTokens: Math.ceil(request.prompt.length / 1.5),
					completionTokens: Math.ceil(response.length / 1.5)
				}
			};
		}
	};
}

function wait(ms: number, request: ChatRequest): Promise<void> {
	const aborted = () => {
		const said = coded('sim_stopped', { case: request.caseNumber, modelRole: request.role });
		return new ModelCallError(english(said), {
			caseNumber: request.caseNumber,
			role: request.role,
			task: request.task,
			kind: 'aborted',
			said: [said]
		});
	};
	if (request.signal?.aborted) return Promise.reject(aborted());
	if (ms <= 0) return Promise.resolve();
	// One listener on the run's signal for every delayed call (abortableSleep, abort-fan-out.ts).
	return abortableSleep(ms, request.signal).catch(() => {
		throw aborted();
	});
}

/** The task a role's test call stands for, so the simulated provider answers it as that role. */
const TEST_TASK: Record<Role, Task> = {
	evaluated: 'lexawn',
	user: 'user_standard',
	judge: 'judge_lca'
};

/**
 * Test connection with the simulated provider: the same tiny call a real endpoint gets ("ping",
 * at most 8 tokens), answered by the simulated client inside the page and said as a real
 * endpoint's answer is (`conn_ok`: the model, where it answered, how long it took).
 */
export async function testSimulatedConnection(
	role: Role,
	model: string,
	options: Pick<SimulatedClientOptions, 'latencyMs'> = {}
): Promise<ConnectionTestResult> {
	const client = createSimulatedClient({ latencyMs: options.latencyMs, model });
	const started = Date.now();
	await client.complete({
		role,
		task: TEST_TASK[role],
		prompt: 'ping',
		temperature: 0,
		maxTokens: 8,
		caseNumber: ''
	});
	const latencyMs = Date.now() - started;
	const said = coded('conn_ok', { model, url: SIMULATED_ENDPOINT, ms: latencyMs });
	return { status: 'ok', provider: 'generic', latencyMs, message: english(said), said };
}

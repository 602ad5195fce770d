/**
 * A scripted `ModelClient` for engine tests: records every request, answers with the simulated
 * provider unless a test's script says otherwise, and can fail on demand.
 */
import { ModelCallError } from '../../../src/lib/core/errors';
import type { ChatRequest, ChatResult, ModelClient } from '../../../src/lib/core/model/types';
import { DEFAULT_PROMPT_PACK } from '../../../src/lib/core/prompts/default-pack';
import { parseFilledPrompt, type SlotValues } from '../../../src/lib/core/prompts/fill';
import { simulateResponse } from '../../../src/lib/core/simulated/responder';

export interface SeenRequest extends ChatRequest {
	/** Slot values read back from the prompt (default pack). */
	values: SlotValues;
	/** What the client answered, once it has. */
	answer?: string;
}

/** Returns the content to answer with, `undefined` for the simulated answer, or throws. */
export type Script = (request: SeenRequest, seen: readonly SeenRequest[]) => string | undefined;

export class ScriptedClient implements ModelClient {
	readonly simulated = false;
	readonly requests: SeenRequest[] = [];
	script: Script;
	/** Milliseconds before answering, per request, so tests can reorder completions. */
	delay: (request: SeenRequest) => number = () => 0;
	#inFlight = 0;
	maxInFlight = 0;

	constructor(script: Script = () => undefined) {
		this.script = script;
	}

	async complete(request: ChatRequest): Promise<ChatResult> {
		const parsed = parseFilledPrompt(request.prompt, DEFAULT_PROMPT_PACK);
		if (parsed?.task !== request.task)
			throw new Error(`prompt does not match task ${request.task}`);
		const seen: SeenRequest = { ...request, values: parsed.values };
		this.requests.push(seen);
		this.#inFlight++;
		this.maxInFlight = Math.max(this.maxInFlight, this.#inFlight);
		try {
			const ms = this.delay(seen);
			if (ms > 0) await new Promise((r) => setTimeout(r, ms));
			const response =
				this.script(seen, this.requests) ?? simulateResponse(request.task, request.prompt);
			seen.answer = response;
			return {
				response,
				reasoning: null,
				finishReason: 'stop',
				usage: { promptTokens: 10, completionTokens: 5 }
			};
		} finally {
			this.#inFlight--;
		}
	}

	/** Requests of one task, optionally of one case. */
	of(task: ChatRequest['task'], caseNumber?: string): SeenRequest[] {
		return this.requests.filter(
			(r) => r.task === task && (caseNumber === undefined || r.caseNumber === caseNumber)
		);
	}
}

/** The failure a real client throws after its last retry. */
export function outage(request: ChatRequest): never {
	throw new ModelCallError(
		`case ${request.caseNumber}, ${request.role} model: 503 Service Unavailable`,
		{
			caseNumber: request.caseNumber,
			role: request.role,
			task: request.task,
			status: 503,
			kind: 'server'
		}
	);
}

/** Progress and log events of the model client: every attempt is visible to the UI and the CLI. */
import type { Role } from '../records';
import type { Task } from './types';
import type { FailureKind } from './retry';
import type { LimitChangeReason } from './limiter';

/** Which call an event belongs to. Never holds a key. */
export interface CallInfo {
	caseNumber: string;
	role: Role;
	task: Task;
	model: string;
	baseURL: string;
	/** 1-based attempt number. */
	attempt: number;
	/** `retries + 1`. */
	maxAttempts: number;
	/** The request's `stage`, when the engine named it. */
	stage?: string;
}

export type ModelEvent =
	| ({ type: 'attempt' } & CallInfo)
	| ({
			type: 'retry';
			/** How long the client waits before the next attempt. */
			delayMs: number;
			/** True when `delayMs` came from the provider's Retry-After (capped). */
			fromRetryAfter: boolean;
			kind: FailureKind;
			status?: number;
			/** Why the attempt failed, for a log line. */
			reason: string;
	  } & CallInfo)
	| ({
			type: 'success';
			latencyMs: number;
			usage: { promptTokens: number; completionTokens: number } | null;
			finishReason: string | null;
	  } & CallInfo)
	| ({
			type: 'failure';
			kind: FailureKind;
			status?: number;
			/** The message of the `ModelCallError` that is thrown. */
			message: string;
	  } & CallInfo)
	| {
			/** The adaptive concurrency limit of an endpoint changed. */
			type: 'limit';
			baseURL: string;
			limit: number;
			reason: LimitChangeReason;
	  };

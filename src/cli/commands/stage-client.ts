/**
 * The model client of a generation command: the offline simulated provider, or the roles'
 * endpoints over `node:http` with the run's retries and timeout.
 */
import { publicBaseUrl } from '../../lib/core/model/base-url';
import { LimiterPool } from '../../lib/core/model/limiter';
import { createOpenAIClient, type OpenAIClientOptions } from '../../lib/core/model/openai-client';
import type { ModelClient } from '../../lib/core/model/types';
import { createSimulatedClient } from '../../lib/core/simulated';
import type { PromptPack } from '../../lib/core/prompts';
import { formatNumber } from '../../lib/core/report/format';
import { escapeControl } from '../../lib/core/text/escape-control';
import { createNodeFetch } from '../../lib/adapters/node-fetch';
import type { CliIo } from '../types';
import type { StageArgs } from './stage-args';

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
						`attempt ${event.attempt + 1} of ${event.maxAttempts} in ${formatNumber(event.delayMs / 1000, 1)}s\n`
				);
			}
		}
	});
}

/**
 * The limiter pool of `run` and of a run plan: `auto`, or at most `max` calls in flight per
 * endpoint; off a terminal, each change of a limit is logged (endpoints without `keys`).
 */
export function loggedLimiters(auto: boolean, max: number, keys: string[], io: CliIo): LimiterPool {
	return new LimiterPool({
		...(auto ? { auto: true } : { max }),
		onLimitChange: (endpoint, limit, reason) => {
			// The pool names endpoints without query values; keys are hidden here as well.
			if (!io.isTTY) {
				io.stderr(
					`concurrency: ${escapeControl(publicBaseUrl(endpoint, keys))} now ${limit} (${escapeControl(reason)})\n`
				);
			}
		}
	});
}

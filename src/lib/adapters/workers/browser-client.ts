/**
 * The browser's model clients. Both are loaded on demand: the `openai` package is the largest
 * dependency, and the first page the user opens must stay small.
 */
import type { ClientFactory } from './run-controller-types';

/**
 * Delay per simulated call, so a demo shows progress and concurrency as a real provider would.
 * @default [40, 200]
 */
export const SIMULATED_LATENCY_MS: [number, number] = [40, 200];

export const browserClientFactory: ClientFactory = (spec) => async (hooks) => {
	if (spec.simulated) {
		const { createSimulatedClient } = await import('$lib/core/simulated');
		return createSimulatedClient({ pack: spec.pack, latencyMs: SIMULATED_LATENCY_MS });
	}
	const [{ createOpenAIClient }, { probeCors }] = await Promise.all([
		import('$lib/core/model/openai-client'),
		import('$lib/core/model/diagnose')
	]);
	const origin = globalThis.location?.origin;
	// An empty key (local servers) is handled by the client itself.
	return createOpenAIClient(spec.endpoints, {
		retries: spec.settings.retries,
		timeoutMs: spec.settings.timeout_s * 1000,
		concurrency: spec.concurrency,
		onEvent: hooks.onEvent,
		// Tells a CORS refusal from a server that is down, so the run stops with the fix at once,
		// and both from a browser that went offline.
		probeConnection: (baseURL, signal) =>
			probeCors(baseURL, { origin, signal, online: () => globalThis.navigator?.onLine !== false })
	});
};

/** A run's model client with a slot per call of each endpoint (`RunController`, stages together). */
import { forwarding } from '$lib/core/forward';
import { LimiterPool } from '$lib/core/model/limiter';
import type { ModelClient } from '$lib/core/model/types';
import type { Role } from '$lib/core/records';

/**
 * The client with a slot per call of each endpoint, when it has no limiters of its own (the
 * simulated provider): `runAll` counts concurrency in calls per endpoint either way, and the
 * pause gate wraps this, so a call held at the gate takes no slot a task under way needs.
 */
export function withLimiters(
	client: ModelClient,
	endpoints: Record<Role, string>,
	max: number
): ModelClient {
	if (client.limiters) return client;
	const limiters = new LimiterPool({ max });
	return forwarding(client, {
		limiters,
		complete: (request) =>
			limiters.get(endpoints[request.role]).run(() => client.complete(request), {
				signal: request.signal,
				priority: request.priority
			})
	});
}

/**
 * For the batch specs: fake OpenAI-compatible servers answering as the simulated models, each
 * closed after the test that started it; the cluster node the manifests name (the calls go to
 * the fake servers); and a client of every role at one server.
 */
import { afterEach } from 'vitest';
import { createOpenAIClient } from '../../../src/lib/core/model/openai-client';
import type { ModelClient } from '../../../src/lib/core/model/types';
import { simulatedScript } from '../../engine/simulated-script';
import { byTask } from '../../fake-openai/by-task';
import { startFakeOpenAI, type FakeOpenAI } from '../../fake-openai/server';
import { MODELS } from '../engine/harness';

export const NODE = 'http://gpu-node:8000/v1';
export const endpoints = { evaluated: NODE, user: NODE, judge: NODE };

/** Call at a spec's top level: `serve()` starts a server, closed after the test. */
export function fakeServers(batch?: { delayMs: number }): () => Promise<FakeOpenAI> {
	const servers: FakeOpenAI[] = [];
	afterEach(async () => {
		await Promise.all(servers.splice(0).map((s) => s.close()));
	});
	return async () => {
		const server = await startFakeOpenAI({ handler: byTask(simulatedScript), batch });
		servers.push(server);
		return server;
	};
}

/** Every role of `MODELS` at `baseURL`, with no key. */
export const rolesAt = (baseURL: string) =>
	Object.fromEntries(
		Object.entries(MODELS).map(([role, model]) => [role, { baseURL, apiKey: '', model }])
	) as never;

/** An interactive client of every role at `baseURL`. */
export const clientAt = (baseURL: string): ModelClient => createOpenAIClient(rolesAt(baseURL));

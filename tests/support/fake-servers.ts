/**
 * Fake OpenAI-compatible servers for one spec file: `serve(handler)` starts one, and every
 * server started is closed after each test.
 */
import { afterEach } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI, type Handler } from '../fake-openai/server';

/** Call at the top of a spec file; returns its `serve`. */
export function fakeServers(): (handler: Handler) => Promise<FakeOpenAI> {
	const servers: FakeOpenAI[] = [];
	afterEach(async () => {
		await Promise.all(servers.splice(0).map((s) => s.close()));
	});
	return async (handler) => {
		const server = await startFakeOpenAI({ handler });
		servers.push(server);
		return server;
	};
}

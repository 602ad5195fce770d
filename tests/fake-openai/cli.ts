/**
 * Starts the fake OpenAI server as its own process, for end-to-end tests of the CLI and the
 * browser app. Prints one JSON line `{"url": …, "baseURL": …}` on stdout once it listens, and
 * runs until SIGINT/SIGTERM.
 *
 *   npx tsx tests/fake-openai/cli.ts [--script <module>] [--port N] [--host H] [--h2]
 *                                    [--no-cors] [--require-key K] [--known-models a,b]
 *
 * `--h2` serves HTTP/2 (and HTTP/1.1) over TLS with a throw-away self-signed certificate.
 *
 * The script module (or $LEXPILOT_FAKE_SCRIPT) default-exports a `Handler` or a `TaskScript`
 * (see by-task.ts). Without one every chat call gets a 501 that says a script is missing.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { byTask, isTaskScript } from './by-task';
import { startFakeOpenAI, type Handler } from './server';

async function loadHandler(script: string | undefined): Promise<Handler> {
	if (!script) return byTask({ detect: () => null, responders: {} });
	const mod = await import(pathToFileURL(resolve(script)).href);
	const exported: unknown = mod.default ?? mod.handler ?? mod.script;
	if (typeof exported === 'function') return exported as Handler;
	if (isTaskScript(exported)) return byTask(exported);
	throw new Error(
		`${script} must default-export a Handler function or a TaskScript { detect, responders }`
	);
}

async function main() {
	const { values } = parseArgs({
		options: {
			script: { type: 'string' },
			port: { type: 'string', default: '0' },
			host: { type: 'string', default: '127.0.0.1' },
			h2: { type: 'boolean', default: false },
			'no-cors': { type: 'boolean', default: false },
			'require-key': { type: 'string' },
			'known-models': { type: 'string' }
		}
	});
	const server = await startFakeOpenAI({
		handler: await loadHandler(values.script ?? process.env.LEXPILOT_FAKE_SCRIPT),
		port: Number(values.port),
		host: values.host,
		transport: values.h2 ? 'h2' : 'http1',
		cors: !values['no-cors'],
		requireKey: values['require-key'],
		knownModels: values['known-models']?.split(',').map((m) => m.trim())
	});
	process.stdout.write(`${JSON.stringify({ url: server.url, baseURL: server.baseURL })}\n`);
	const stop = () => void server.close().then(() => process.exit(0));
	process.on('SIGINT', stop);
	process.on('SIGTERM', stop);
}

main().catch((e: unknown) => {
	process.stderr.write(`fake-openai: ${e instanceof Error ? e.message : String(e)}\n`);
	process.exit(2);
});

#!/usr/bin/env node
// Serves the built static site (`build/`) on 127.0.0.1. Used by `npm start` and the
// end-to-end tests. Usage: node scripts/serve.js [--port 4173] [--dir build] [--base /prefix]
// `--base` serves the site under a sub-path, as a static host would (the build uses relative
// paths, so the same build/ works under any prefix).
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve } from 'node:path';
import { parseArgs } from 'node:util';

/** @type {Record<string, string>} */
const TYPES = {
	'.html': 'text/html; charset=utf-8',
	'.js': 'text/javascript; charset=utf-8',
	'.css': 'text/css; charset=utf-8',
	'.json': 'application/json; charset=utf-8',
	'.svg': 'image/svg+xml',
	'.png': 'image/png',
	'.txt': 'text/plain; charset=utf-8',
	'.md': 'text/markdown; charset=utf-8',
	'.webmanifest': 'application/manifest+json'
};

/**
 * Starts the server; resolves with its URL (including the base path) and a close function.
 * Port 0 picks a free port.
 */
export async function serve({ dir = 'build', port = 4173, host = '127.0.0.1', base = '' } = {}) {
	const root = resolve(dir);
	const prefix = base.replace(/\/+$/, '');
	const server = createServer(async (req, res) => {
		try {
			const url = new URL(req.url ?? '/', 'http://localhost');
			let pathname = decodeURIComponent(url.pathname);
			if (prefix) {
				if (pathname === prefix) {
					res.writeHead(301, { location: `${prefix}/` }).end();
					return;
				}
				if (!pathname.startsWith(`${prefix}/`)) {
					res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('not found');
					return;
				}
				pathname = pathname.slice(prefix.length);
			}
			let path = normalize(pathname).replace(/^(\.\.[/\\])+/, '');
			let file = join(root, path);
			if (!file.startsWith(root)) throw new Error('outside root');
			const candidates = [file, join(file, 'index.html'), `${file}.html`];
			let found = null;
			for (const c of candidates) {
				const s = await stat(c).catch(() => null);
				if (s?.isFile()) {
					found = c;
					break;
				}
			}
			const status = found ? 200 : 404;
			found ??= join(root, '404.html');
			const body = await readFile(found);
			res.writeHead(status === 404 && found.endsWith('404.html') ? 200 : status, {
				'content-type': TYPES[extname(found)] ?? 'application/octet-stream',
				'cache-control': found.includes('/_app/immutable/')
					? 'max-age=31536000, immutable'
					: 'no-cache'
			});
			res.end(body);
		} catch {
			res.writeHead(400).end('bad request');
		}
	});
	await new Promise((ok, fail) => {
		server.once('error', fail);
		server.listen(port, host, () => ok(undefined));
	});
	const address = server.address();
	const url = `http://${host}:${typeof address === 'object' && address ? address.port : port}${prefix}`;
	return { url, close: () => new Promise((ok) => server.close(() => ok(undefined))) };
}

if (import.meta.url === `file://${process.argv[1]}`) {
	const { values } = parseArgs({
		options: {
			port: { type: 'string', default: '4173' },
			dir: { type: 'string', default: 'build' },
			base: { type: 'string', default: '' }
		}
	});
	const s = await stat(values.dir).catch(() => null);
	if (!s) {
		console.error(`No "${values.dir}" folder: run "npm run build" first.`);
		process.exit(2);
	}
	const { url } = await serve({ dir: values.dir, port: Number(values.port), base: values.base });
	console.log(`LexPilot Workbench is running at ${url}  (Ctrl+C to stop)`);
}

/**
 * A second local HTTP server, on its own port, that serves bundle zips as a release host would:
 * with `Access-Control-Allow-Origin: *` or, for the CORS case, without it. It records the
 * method of each request, so a test sees that only a HEAD came before the user said yes.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ZipHost {
	/** `http://127.0.0.1:PORT` */
	url: string;
	/** `METHOD /path` of every request, in order. */
	requests: string[];
	close(): Promise<void>;
}

/** What the host answers at one path. */
export interface Served {
	body: Uint8Array | string;
	type?: string;
	status?: number;
	/** A Content-Length for HEAD that differs from the body's (a host that says it is huge). */
	declared?: number;
	/** Answers 302 to this URL instead (a link that moved, as a release asset's does). */
	location?: string;
	/** Answers the HEAD itself but the GET with a 302 to this URL (a host that turns after the ask). */
	getLocation?: string;
	/** The Content-Length the HEAD says; the GET sends the whole body with its own length. */
	headDeclared?: number;
}

export async function startZipHost(
	files: Record<string, Served>,
	options: { cors: boolean }
): Promise<ZipHost> {
	const requests: string[] = [];
	const server: Server = createServer((req, res) => {
		requests.push(`${req.method} ${req.url}`);
		const file = Object.hasOwn(files, req.url ?? '') ? files[req.url!] : null;
		const headers: Record<string, string> = {};
		if (options.cors) headers['access-control-allow-origin'] = '*';
		if (!file) {
			res.writeHead(404, headers).end('not found');
			return;
		}
		const location = file.location ?? (req.method === 'GET' ? file.getLocation : undefined);
		if (location) {
			res.writeHead(302, { ...headers, location }).end();
			return;
		}
		const body = typeof file.body === 'string' ? Buffer.from(file.body) : Buffer.from(file.body);
		headers['content-type'] = file.type ?? 'application/zip';
		const headSays = req.method === 'HEAD' ? file.headDeclared : undefined;
		headers['content-length'] = String(file.declared ?? headSays ?? body.length);
		res.writeHead(file.status ?? 200, headers);
		if (req.method === 'HEAD' || file.declared !== undefined) res.end();
		else res.end(body);
	});
	await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		requests,
		close: () => new Promise<void>((ok) => server.close(() => ok()))
	};
}

/**
 * The minimal client the CLI's run bench compares with, in a process of its own as the CLI is:
 * `node tests/bench/replay-client.js <bodies.json> <baseURL> <concurrency> <key>` sends the
 * request bodies in the file (a JSON array) again, `concurrency` at a time, over `node:http`
 * with keep-alive (the cheapest transport Node has, and the one the CLI uses), parses each
 * answer, and prints `{ "wallMs": …, "cpuUs": … }`: the wall time and the process's CPU time
 * (user + system) from the first request to the last answer, reading the file left out.
 * Plain JavaScript, so no TypeScript loader runs in the measured process.
 */
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';

const [file, baseURL, concurrencyArg, key] = process.argv.slice(2);
/** @type {unknown[]} */
const parsed = JSON.parse(readFileSync(file, 'utf8'));
const bodies = parsed.map((body) => JSON.stringify(body));
const concurrency = Number(concurrencyArg);
if (!(concurrency >= 1) || !baseURL || !key) {
	process.stderr.write('usage: replay-client.js <bodies.json> <baseURL> <concurrency> <key>\n');
	process.exit(2);
}
const url = new URL(`${baseURL}/chat/completions`);
const agent = new Agent({ keepAlive: true });

/** @param {string} body */
const post = (body) =>
	new Promise((resolve, reject) => {
		const req = request(
			url,
			{
				method: 'POST',
				agent,
				headers: {
					'content-type': 'application/json',
					'content-length': Buffer.byteLength(body),
					authorization: `Bearer ${key}`
				}
			},
			(res) => {
				/** @type {Buffer[]} */
				const chunks = [];
				res.on('data', (chunk) => chunks.push(chunk));
				res.on('end', () => {
					try {
						JSON.parse(Buffer.concat(chunks).toString('utf8'));
						resolve(undefined);
					} catch (e) {
						reject(e);
					}
				});
				res.on('error', reject);
			}
		);
		req.on('error', reject);
		req.end(body);
	});

const cpu = () => {
	const { user, system } = process.cpuUsage();
	return user + system;
};
let next = 0;
const lane = async () => {
	while (next < bodies.length) await post(bodies[next++]);
};
const startCpu = cpu();
const start = performance.now();
await Promise.all(Array.from({ length: concurrency }, lane));
const wallMs = performance.now() - start;
const cpuUs = cpu() - startCpu;
agent.destroy();
process.stdout.write(`${JSON.stringify({ wallMs, cpuUs })}\n`);

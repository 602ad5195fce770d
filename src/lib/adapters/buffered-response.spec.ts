import { describe, expect, it } from 'vitest';
import { BufferedResponse } from './buffered-response';

const init = {
	status: 200,
	statusText: 'OK',
	headers: [['content-type', 'application/json']] as [string, string][]
};
const bodies: [string, Uint8Array<ArrayBuffer>][] = [
	['plain JSON', new TextEncoder().encode('{"a":"中文"}')],
	['a leading BOM', new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode('{"a":1}')])],
	['a bad UTF-8 byte', new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d])]
];

/** Every way of reading a body once, as the answer it gives or the error it fails with. */
const reads: [string, (r: Response) => Promise<unknown>][] = [
	['text', (r) => r.text()],
	['json', (r) => r.json()],
	['bytes', async (r) => [...new Uint8Array(await r.arrayBuffer())]],
	['blob', async (r) => (await r.blob()).text()],
	['body', async (r) => new Response(r.body).text()],
	['clone', (r) => r.clone().text()]
];

const outcome = (p: Promise<unknown>) =>
	p.then(
		(value) => ({ value }),
		(e: Error) => ({ error: e.constructor.name })
	);

describe('BufferedResponse', () => {
	for (const [what, bytes] of bodies) {
		for (const [how, read] of reads) {
			it(`reads ${what} by ${how} as a standard Response does`, async () => {
				const mine = new BufferedResponse(bytes.slice(), init);
				const standard = new Response(bytes.slice(), init);
				expect(mine).toBeInstanceOf(Response);
				expect(await outcome(read(mine))).toEqual(await outcome(read(standard)));
				expect(mine.bodyUsed).toBe(standard.bodyUsed);
			});
		}
	}

	it('is read once: a second read fails as on a Response', async () => {
		const response = new BufferedResponse(new TextEncoder().encode('{}'), init);
		expect(await response.json()).toEqual({});
		expect(response.bodyUsed).toBe(true);
		await expect(response.text()).rejects.toThrow(TypeError);
		expect(() => response.clone()).toThrow(TypeError);
	});

	it('has no body when made without bytes (a 204)', async () => {
		const response = new BufferedResponse(null, { status: 204 });
		expect(response.body).toBeNull();
		expect(response.ok).toBe(true);
		expect(await response.text()).toBe('');
	});

	it('keeps its status and headers', () => {
		const response = new BufferedResponse(new Uint8Array(0), {
			status: 503,
			statusText: 'Busy',
			headers: [['retry-after', '2']]
		});
		expect([response.status, response.statusText, response.ok]).toEqual([503, 'Busy', false]);
		expect(response.headers.get('retry-after')).toBe('2');
		expect(response.headers).toBe(response.headers);
	});

	it("answers every member of Response itself (none of the prototype's, which would refuse it)", () => {
		const response = new BufferedResponse(new Uint8Array(0), init);
		for (const name of Object.getOwnPropertyNames(Response.prototype)) {
			if (name === 'constructor') continue;
			const own = Object.hasOwn(BufferedResponse.prototype, name) || Object.hasOwn(response, name);
			expect(own, name).toBe(true);
		}
	});
});

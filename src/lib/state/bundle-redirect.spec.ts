import { describe, expect, it } from 'vitest';
import { bundleHead } from './bundle-fetch';
import { redirectedHost } from './bundle-redirect';

describe('the host a bundle link was redirected to', () => {
	it('is the final host when a redirect changed it, else empty', () => {
		const link = 'https://example.org/runs.zip';
		expect(redirectedHost(link, 'https://cdn.example.net/a/runs.zip')).toBe('cdn.example.net');
		expect(redirectedHost(link, 'https://example.org/other.zip')).toBe('');
		expect(redirectedHost(link, '')).toBe('');
		expect(redirectedHost(link, 'https://ev\u0007il.test/')).not.toContain('\u0007');
	});

	it("comes from the HEAD's response.url", async () => {
		const answered = new Response(null, { headers: { 'content-length': '22' } });
		Object.defineProperty(answered, 'url', { value: 'https://cdn.example.net/runs.zip' });
		const fetchImpl = (async () => answered) as unknown as typeof fetch;
		const head = await bundleHead('https://example.org/runs.zip', 1000, { fetchImpl });
		expect(head).toEqual({ bytes: 22, finalURL: 'https://cdn.example.net/runs.zip' });
	});
});

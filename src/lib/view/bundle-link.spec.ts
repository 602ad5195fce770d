import { describe, expect, it } from 'vitest';
import { readBundleLink, SHOWN_CHARS, shownLink } from './bundle-link';

describe('a bundle link', () => {
	it('takes an http(s) URL, naming its host and file', () => {
		expect(readBundleLink('https://github.com/o/r/releases/download/v1/runs%201.zip')).toEqual({
			link: {
				url: 'https://github.com/o/r/releases/download/v1/runs%201.zip',
				host: 'github.com',
				name: 'runs 1.zip'
			}
		});
		expect(readBundleLink('http://127.0.0.1:8123/x.zip').link?.host).toBe('127.0.0.1:8123');
	});

	it.each([
		['javascript:alert(1)', 'not-http'],
		['data:application/zip;base64,UEsFBg==', 'not-http'],
		['file:///etc/passwd', 'not-http'],
		['blob:https://example.org/1', 'not-http'],
		['ftp://example.org/x.zip', 'not-http'],
		['//example.org/x.zip', 'not-url'],
		['x.zip', 'not-url'],
		['', 'not-url'],
		['https://user:secret@example.org/x.zip', 'credentials']
	])('refuses %s (%s)', (raw, refusal) => {
		expect(readBundleLink(raw)).toEqual({ refusal });
	});

	it('shows a look-alike host in its xn-- form and a file name without its controls', () => {
		const { link } = readBundleLink('https://gіthub.com/a%1B%5B2J%E2%80%AEpiz.zip');
		expect(link?.host).toBe('xn--gthub-n2e.com');
		expect(link?.name).toBe('a\\u001b[2J\\u202epiz.zip');
	});

	it('names the host when the path has no file, and keeps a bad escape as written', () => {
		expect(readBundleLink('https://example.org/').link?.name).toBe('example.org');
		expect(readBundleLink('https://example.org/%E0%A4%A.zip').link?.name).toBe('%E0%A4%A.zip');
	});

	it('clips and escapes a refused link for display', () => {
		const shown = shownLink(`javascript:\u001b${'x'.repeat(500)}`);
		expect(shown.startsWith('javascript:\\u001b')).toBe(true);
		expect(shown).toMatch(new RegExp(`^.{${SHOWN_CHARS}}… \\(\\d+ characters in all\\)$`));
	});
});

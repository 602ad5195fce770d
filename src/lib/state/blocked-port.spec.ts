import { describe, expect, it } from 'vitest';
import { blockedPort, blockedPortProblems, blockedPortResult } from './blocked-port';

describe('blockedPort', () => {
	it.each([
		['http://localhost:9/v1', 9],
		['http://127.0.0.1:6667/v1', 6667],
		['https://host.example:10080/v1', 10080],
		['http://[::1]:22', 22]
	])('%s is refused by the browser', (url, port) => {
		expect(blockedPort(url)).toBe(port);
	});

	it.each([
		'http://localhost:8000/v1',
		'http://localhost:11434/v1',
		'https://api.openai.com/v1',
		// 80 and 443 are the default ports; the URL parser drops them.
		'http://localhost:80/v1',
		'not a url',
		''
	])('%s is not', (url) => {
		expect(blockedPort(url)).toBeNull();
	});

	it('says the browser blocks the port, and which ports to use, not that nothing answered', () => {
		const r = blockedPortResult('http://localhost:9/v1', 9);
		expect(r.status).toBe('unreachable');
		expect(r.message).toContain('port 9');
		expect(r.message).toContain('http://localhost:9/v1');
		expect(r.message).not.toMatch(/nothing answered/i);
		expect(r.hint).toContain('11434');
	});
});

describe('blockedPortProblems', () => {
	const at = (baseURL: string) => ({ baseURL, apiKey: '', model: 'm' });
	it('names each refused base URL once, with the ports to use instead', () => {
		const problems = blockedPortProblems({
			evaluated: at('http://localhost:6000/v1'),
			user: at('http://localhost:6000/v1'),
			judge: at('http://localhost:8000/v1')
		});
		expect(problems).toHaveLength(1);
		expect(problems[0]).toContain('port 6000 of http://localhost:6000/v1');
		expect(problems[0]).toContain('8000, 8080, 11434, 1234');
	});
});

import { describe, expect, it } from 'vitest';
import { shellPlan } from './offline-shell';

const scope = 'https://example.org/tools/lexpilot/';
const plan = shellPlan({
	build: ['/tools/lexpilot/_app/immutable/entry/app.js', '/tools/lexpilot/_app/immutable/a.css'],
	files: ['/tools/lexpilot/favicon.svg', '/tools/lexpilot/sample/lexpilot-sample.json'],
	prerendered: ['/tools/lexpilot/', '/tools/lexpilot/dataset', '/tools/lexpilot/run'],
	scope
});
const at = (path: string) => new URL(path, 'https://example.org').href;

describe('the offline shell plan', () => {
	it('caches the build, static files, every page shell and the SPA fallback, nothing else', () => {
		expect(plan.assets.sort()).toEqual(
			[
				'/tools/lexpilot/_app/immutable/entry/app.js',
				'/tools/lexpilot/_app/immutable/a.css',
				'/tools/lexpilot/favicon.svg',
				'/tools/lexpilot/sample/lexpilot-sample.json',
				'/tools/lexpilot/',
				'/tools/lexpilot/dataset',
				'/tools/lexpilot/run',
				'/tools/lexpilot/404.html'
			]
				.map(at)
				.sort()
		);
	});

	it.each([
		[
			'an asset',
			'GET',
			'/tools/lexpilot/_app/immutable/a.css',
			false,
			'/tools/lexpilot/_app/immutable/a.css'
		],
		[
			'the sample',
			'GET',
			'/tools/lexpilot/sample/lexpilot-sample.json',
			false,
			'/tools/lexpilot/sample/lexpilot-sample.json'
		],
		['a page', 'GET', '/tools/lexpilot/dataset', true, '/tools/lexpilot/dataset'],
		['a page with a query', 'GET', '/tools/lexpilot/run?x=1', true, '/tools/lexpilot/run'],
		['the root', 'GET', '/tools/lexpilot/', true, '/tools/lexpilot/'],
		['the root without its slash', 'GET', '/tools/lexpilot', true, '/tools/lexpilot/'],
		['an unknown route', 'GET', '/tools/lexpilot/inspect/x', true, '/tools/lexpilot/404.html']
	])('answers %s from the cache', (_name, method, path, navigate, key) => {
		expect(plan.cacheKey(method, at(path), navigate)).toBe(at(key));
	});

	it.each([
		[
			'a model call (POST)',
			'POST',
			'https://example.org/tools/lexpilot/v1/chat/completions',
			false
		],
		['another origin', 'GET', 'https://api.openai.com/v1/models', false],
		['a navigation to another origin', 'GET', 'https://api.example.com/', true],
		[
			'a file that is not in the build',
			'GET',
			'https://example.org/tools/lexpilot/other.json',
			false
		],
		['a path outside the scope', 'GET', 'https://example.org/tools/lexpilotx/dataset', true],
		['another site on the same host', 'GET', 'https://example.org/other/', true]
	])('leaves %s to the network', (_name, method, url, navigate) => {
		expect(plan.cacheKey(method, url, navigate)).toBeNull();
	});
});

import { describe, expect, it } from 'vitest';
import { pageRoots, staticClosure, staticImports } from './first-load';

describe('staticImports', () => {
	it('finds static imports and re-exports of minified output, not dynamic imports', () => {
		const code =
			'import{a as b,c}from"./A.js";import*as d from"../chunks/B.js";import"./C.js";' +
			'export{e}from"./D.js";const f=()=>import("./Lazy.js");new Worker(new URL("./W.js",import.meta.url));';
		expect(staticImports(code)).toEqual(['./A.js', '../chunks/B.js', './C.js', './D.js']);
	});
});

describe('pageRoots', () => {
	it('takes the entry imports and the route nodes, not the other preloaded chunks', () => {
		const html =
			'<link href="./_app/immutable/entry/start.X.js" rel="modulepreload">' +
			'<link href="./_app/immutable/chunks/Y.js" rel="modulepreload">' +
			'<link href="./_app/immutable/nodes/0.Z.js" rel="modulepreload">' +
			'<link href="./_app/immutable/nodes/9.Q.js" rel="modulepreload">' +
			'Promise.all([import("./_app/immutable/entry/start.X.js"), import("./_app/immutable/entry/app.A.js")])';
		expect(pageRoots(html, '/b')).toEqual([
			'/b/_app/immutable/entry/start.X.js',
			'/b/_app/immutable/entry/app.A.js',
			'/b/_app/immutable/nodes/0.Z.js',
			'/b/_app/immutable/nodes/9.Q.js'
		]);
	});
});

describe('staticClosure', () => {
	it('follows static imports transitively, once each, and stops at dynamic ones', async () => {
		const files: Record<string, string> = {
			'/a/entry.js': 'import{x}from"./c/one.js";import("./lazy.js")',
			'/a/c/one.js': 'import"./two.js";import"../entry.js"',
			'/a/c/two.js': 'export{y}from"./one.js"',
			'/a/lazy.js': 'import"./never.js"'
		};
		const closure = await staticClosure(['/a/entry.js'], async (p) => files[p]);
		expect([...closure].sort()).toEqual(['/a/c/one.js', '/a/c/two.js', '/a/entry.js']);
	});
});

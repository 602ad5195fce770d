import { describe, expect, it } from 'vitest';
import { isRunKey, manifestPath, runFilePath, runFolder, stageFilePath } from './layout';
import { endpointKey, parseRunKey, reportRunKey, runKey, sameEndpoint } from './names';

describe('run key', () => {
	const run = { runId: 'run1', modelDir: 'gpt-x-1a2b3c4d' };

	it('names a run the same in either spelling, and reads back', () => {
		expect(runKey(run)).toBe('run1/gpt-x-1a2b3c4d');
		expect(reportRunKey({ run_id: 'run1', model_dir: 'gpt-x-1a2b3c4d' })).toBe(runKey(run));
		expect(parseRunKey(runKey(run))).toEqual(run);
	});

	it.each(['run1', '/gpt-x', 'run1/', ''])('reads %j as no run', (key) => {
		expect(parseRunKey(key)).toBeNull();
	});

	it.each([
		['run1/gpt-x-1a2b3c4d', true],
		['run1', false],
		['/gpt-x', false],
		['run1/', false],
		['run1/.', false],
		['-run/m', false],
		['run1/a/b', false],
		['run 1/m', false]
	])('%s is a run key the layout allows: %s', (key, ok) => {
		expect(isRunKey(key)).toBe(ok);
	});

	it('files every path of a run under its key', () => {
		expect(runFolder(run)).toBe('runs/run1/gpt-x-1a2b3c4d');
		expect(runFilePath(run, '.lock')).toBe('runs/run1/gpt-x-1a2b3c4d/.lock');
		expect(manifestPath(run)).toBe('runs/run1/gpt-x-1a2b3c4d/manifest.json');
		expect(stageFilePath(run, 'LCA_results')).toBe(
			'eval_results/run1/gpt-x-1a2b3c4d/LCA_results.jsonl'
		);
	});
});

describe('endpoint identity', () => {
	it.each([
		['https://api.example.com/v1', 'https://api.example.com/v1/', true],
		['https://api.example.com/v1', 'https://api.example.com/v1///', true],
		['https://api.example.com/v1', 'https://api.example.com/v2', false],
		['https://api.example.com/v1?a=***', 'https://api.example.com/v1?a=***', true]
	])('%s and %s are the same endpoint: %s', (a, b, same) => {
		expect(sameEndpoint(a, b)).toBe(same);
	});

	it('keys an endpoint by its base URL without trailing slashes', () => {
		expect(endpointKey('http://127.0.0.1:8000/v1/')).toBe('http://127.0.0.1:8000/v1');
		expect(endpointKey('http://127.0.0.1:8000/v1')).toBe('http://127.0.0.1:8000/v1');
	});
});

import { afterEach, describe, expect, it } from 'vitest';
import { overwriteGetLocale, type Locale } from '$lib/paraglide/runtime';
import { noCallLogReason, noCallLogText, type NoCallLogReason } from './call-log-reason';

const inLocale = (locale: Locale) => overwriteGetLocale(() => locale);
afterEach(() => inLocale('en'));

describe('why a run has no call log', () => {
	const ours = 'lexpilot-workbench';
	it.each<[string, string, string, NoCallLogReason]>([
		['a release before the call log', ours, '0.0.9', { kind: 'predates', version: '0.0.9' }],
		['the release that brought it', ours, '0.1.0', { kind: 'missing', version: '0.1.0' }],
		['a later release', ours, '1.2.3', { kind: 'missing', version: '1.2.3' }],
		['an unversioned build (the browser’s)', ours, 'dev', { kind: 'missing', version: 'dev' }],
		['another tool', 'lexpilot-py', '2.0', { kind: 'other-tool', tool: 'lexpilot-py 2.0' }],
		['a hostile name, escaped', 'x\u001b[31m', '1', { kind: 'other-tool', tool: 'x\\u001b[31m 1' }]
	])('%s', (_, name, version, reason) => {
		expect(noCallLogReason({ tool: { name, version } })).toEqual(reason);
	});

	it('says "predates" only for a version before the call log, in both languages', () => {
		const old = noCallLogText({ kind: 'predates', version: '0.0.9' });
		expect(old).toContain('predates the call log (kept since 0.1.0)');
		const lost = noCallLogText({ kind: 'missing', version: '0.1.0' });
		expect(lost).not.toContain('predates');
		expect(lost).toContain('was not exported or imported with the run');
		expect(noCallLogText({ kind: 'other-tool', tool: 'py 2' })).toContain('another tool (py 2)');
		inLocale('zh-CN');
		expect(noCallLogText({ kind: 'predates', version: '0.0.9' })).toContain('早于调用日志功能');
		expect(noCallLogText({ kind: 'missing', version: '0.1.0' })).not.toContain('早于');
		expect(noCallLogText({ kind: 'missing', version: '0.1.0' })).toContain('未随运行导出或导入');
		expect(noCallLogText({ kind: 'other-tool', tool: 'py 2' })).toContain('其他工具（py 2）');
	});
});

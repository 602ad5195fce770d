/**
 * A run's warnings (a changed category map on resume, a call log that could not be written) come
 * coded beside their English, one for one, so the Run page says them in its own language.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { CheckpointError } from '../../../src/lib/core/errors';
import type { RunKey } from '../../../src/lib/core/layout';
import { coded } from '../../../src/lib/core/said';
import { MemoryStore } from '../../../src/lib/core/store/memory-store';
import { english } from '../../../src/lib/core/voice';
import { baseLocale, overwriteGetLocale } from '../../../src/lib/paraglide/runtime';
import { coreText } from '../../../src/lib/view/core-text';
import { makeDataset } from '../../fixtures/engine/cases';
import { run } from './harness';
import { ScriptedClient } from './scripted-client';

afterEach(() => overwriteGetLocale(() => baseLocale));

/** Each warning and its Chinese, made from its coded twin. */
function chinese(result: { warnings: string[]; warningsSaid?: readonly unknown[] }) {
	const said = result.warningsSaid as Parameters<typeof english>[0][];
	expect(said).toHaveLength(result.warnings.length);
	result.warnings.forEach((w, i) => expect(english(said[i])).toBe(w));
	overwriteGetLocale(() => 'zh-CN');
	return result.warnings.map((w, i) => coreText(w, said[i] as never));
}

describe('a run’s warnings, coded', () => {
	it('a changed category map on resume', async () => {
		const store = new MemoryStore();
		const dataset = makeDataset(2);
		await run(new ScriptedClient(), store, { dataset, stages: ['ljp-direct'] });
		const other = { ...dataset, categories: { 民间借贷纠纷: '其他' } };
		const result = await run(new ScriptedClient(), store, {
			dataset: other,
			stages: ['ljp-direct']
		});
		expect(result.warnings).toHaveLength(1);
		expect(chinese(result)[0]).toMatch(/^类别映射与该运行保存时的不同/);
	});

	it('a call log that could not be written', async () => {
		class FullLog extends MemoryStore {
			override async appendCall(run: RunKey): Promise<void> {
				const file = `runs/${run.runId}/calls.jsonl`;
				throw new CheckpointError([coded('calls_disk_full', { file, code: 'ENOSPC' })]);
			}
		}
		const result = await run(new ScriptedClient(), new FullLog(), {
			dataset: makeDataset(2),
			stages: ['ljp-direct']
		});
		// Calls already on their way when the first line failed are told too.
		expect(result.warnings.length).toBeGreaterThan(0);
		expect(result.warnings[0]).toMatch(
			/^the call log of r1\/\S+ could not be written \(runs\/r1\/calls\.jsonl: the disk is full \(ENOSPC\)\); the run goes on, later calls are not logged$/
		);
		expect(chinese(result)[0]).toMatch(
			/^r1\/\S+ 的调用日志无法写入（runs\/r1\/calls\.jsonl：磁盘已满（ENOSPC））；运行照常继续/
		);
	});
});

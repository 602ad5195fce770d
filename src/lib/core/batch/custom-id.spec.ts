import { describe, expect, it } from 'vitest';
import { CUSTOM_ID_MAX, customId, customIdRun, runHash, type CallIdentity } from './custom-id';

const base: CallIdentity = {
	run: { runId: 'run1', modelDir: 'gpt-x-1a2b3c4d' },
	stage: 'ljp-interaction',
	caseNumber: '2023-041',
	task: 'judge_extract',
	prompt: '请判断……',
	occurrence: 0,
	attempt: 1
};

describe('customId', () => {
	it('is stable: the same call gives the same id, on every round and restart', async () => {
		expect(await customId(base)).toBe(await customId({ ...base }));
		expect(await customId(base)).toMatchInlineSnapshot(
			`"lp1.a4fc4f30.li.8800693fde.je.425029c7b7dca1a1.0.1"`
		);
	});

	it('differs in each part that tells calls apart', async () => {
		const variants: CallIdentity[] = [
			base,
			{ ...base, run: { runId: 'run2', modelDir: 'gpt-x-1a2b3c4d' } },
			{ ...base, run: { runId: 'run1', modelDir: 'gpt-y-1a2b3c4d' } },
			{ ...base, stage: 'ljp-gold' },
			{ ...base, caseNumber: '2023-042' },
			{ ...base, task: 'force_judge' },
			{ ...base, prompt: base.prompt + ' ' },
			{ ...base, occurrence: 1 },
			{ ...base, attempt: 2 }
		];
		const ids = await Promise.all(variants.map(customId));
		expect(new Set(ids).size).toBe(variants.length);
	});

	it('stays within 64 characters and carries nothing of hostile text', async () => {
		const hostile = {
			...base,
			run: { runId: 'r'.repeat(64), modelDir: `${'m'.repeat(80)}-deadbeef` },
			caseNumber: '../../\u0000\n{"custom_id":"x"}'.repeat(100),
			prompt: '\u202e'.repeat(10_000),
			occurrence: 9999,
			attempt: 999
		};
		const id = await customId(hostile);
		expect(id.length).toBeLessThanOrEqual(CUSTOM_ID_MAX);
		expect(id).toMatch(/^[a-z0-9.]+$/);
	});

	it('names its run, so a line of another run is told apart', async () => {
		const id = await customId(base);
		expect(customIdRun(id)).toBe(await runHash(base.run));
		expect(customIdRun(id)).not.toBe(await runHash({ runId: 'run2', modelDir: 'gpt-x-1a2b3c4d' }));
		for (const bad of ['', 'lp1', `${id}x`, id.replace('lp1', 'lp2'), ` ${id}`]) {
			expect(customIdRun(bad)).toBeNull();
		}
	});

	it('refuses a stage it has no code for', async () => {
		await expect(customId({ ...base, stage: 'judge' })).rejects.toThrow(/stage "judge"/);
	});
});

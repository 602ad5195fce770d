import { describe, expect, it } from 'vitest';
import { sha256Canonical } from '$lib/core/hash';
import { codeSha256, DEFAULT_PROMPT_PACK, promptsSha256 } from '$lib/core/prompts';
import { onlyWhatDiffers } from './code-difference';

const edited = { ...DEFAULT_PROMPT_PACK, name: 'edited' };

describe('onlyWhatDiffers', () => {
	const both = (saved: { code_sha256: string; prompts_sha256: string }) => [
		{ field: 'code_sha256', saved: saved.code_sha256, now: 'x' },
		{ field: 'prompts_sha256', saved: saved.prompts_sha256, now: 'y' }
	];

	it('drops the code hash a prompt edit alone explains', async () => {
		const saved = {
			code_sha256: await codeSha256(edited),
			prompts_sha256: await promptsSha256(edited)
		};
		const fields = (await onlyWhatDiffers(saved, both(saved))).map((d) => d.field);
		expect(fields).toEqual(['prompts_sha256']);
	});

	it('keeps it when another protocol version made the run', async () => {
		const prompts_sha256 = await promptsSha256(edited);
		const code_sha256 = await sha256Canonical({
			protocol_version: 'older-protocol',
			prompts_sha256
		});
		const saved = { code_sha256, prompts_sha256 };
		const fields = (await onlyWhatDiffers(saved, both(saved))).map((d) => d.field);
		expect(fields).toEqual(['code_sha256', 'prompts_sha256']);
	});

	it('keeps a code difference with the same prompts (another protocol version)', async () => {
		const saved = { code_sha256: 'c', prompts_sha256: 'p' };
		const diffs = [{ field: 'code_sha256', saved: 'c', now: 'd' }];
		expect(await onlyWhatDiffers(saved, diffs)).toEqual(diffs);
	});
});

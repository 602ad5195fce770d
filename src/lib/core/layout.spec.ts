import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
	modelDirName,
	parseReviewPath,
	reviewerFileName,
	reviewFilePath,
	RUN_ID_PATTERN,
	runIdProblem,
	unportableName
} from './layout';

const sha8 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 8);

describe('portable layout names', () => {
	it.each([
		['CON', 'reserved'],
		['con', 'reserved'],
		['Aux', 'reserved'],
		['nul.txt', 'reserved'],
		['NUL.tar.gz', 'reserved'],
		['COM1', 'reserved'],
		['com0', 'reserved'],
		['LPT9', 'reserved'],
		['lpt9.jsonl', 'reserved'],
		['prn.', 'reserved'],
		['run1.', 'trailing-dot'],
		['run1 ', 'trailing-dot'],
		['.hidden', 'leading-dot'],
		['..-5ec1f7e7', 'leading-dot'],
		['CONSOLE', null],
		['con-1', null],
		['COM10', null],
		['nul_x', null],
		['run1', null],
		['gpt-4o-1a2b3c4d', null]
	] as const)('%j → %s', (name, rule) => {
		expect(unportableName(name)).toBe(rule);
	});

	it.each([
		['run1', null],
		['r.1_a-b', null],
		['CON', 'reserved'],
		['com1.jsonl', 'reserved'],
		['aux', 'reserved'],
		['run1.', 'trailing-dot'],
		['../x', 'alphabet'],
		['', 'alphabet'],
		['a'.repeat(65), 'alphabet']
	] as const)('run id %j → %s', (runId, problem) => {
		expect(runIdProblem(runId)).toBe(problem);
	});
});

describe('modelDirName', () => {
	it('keeps the folder of every ordinary model id byte for byte (saved runs keep theirs)', async () => {
		for (const id of [
			'gpt-4o',
			'deepseek-chat',
			'DeepSeek-R1',
			'qwen/qwen3:72b',
			'模型',
			'a.b',
			'con-x'
		]) {
			const safe = id.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 64);
			expect(await modelDirName(id)).toBe(`${safe}-${sha8(id)}`);
		}
		expect(await modelDirName('gpt-4o')).toBe(`gpt-4o-${sha8('gpt-4o')}`);
	});

	it('prefixes _ to a folder that would start with a dot or be a Windows device name', async () => {
		expect(await modelDirName('..')).toBe('_..-5ec1f7e7');
		expect(await modelDirName('.')).toBe(`_.-${sha8('.')}`);
		expect(await modelDirName('.hidden')).toBe(`_.hidden-${sha8('.hidden')}`);
		expect(await modelDirName('nul.x')).toBe(`_nul.x-${sha8('nul.x')}`);
		expect(await modelDirName('CON.model')).toBe(`_CON.model-${sha8('CON.model')}`);
		for (const id of ['..', '.', '...', '.x', 'nul.x', 'Com1.a', 'lpt9.', 'aux.v2']) {
			const dir = await modelDirName(id);
			expect(unportableName(dir), dir).toBeNull();
			expect(dir.startsWith('.')).toBe(false);
		}
	});

	it('a run id the alphabet allows but portability refuses is still read back', () => {
		// Readers list runs saved before the rule; only new runs and imports are refused.
		expect(RUN_ID_PATTERN.test('CON')).toBe(true);
		expect(runIdProblem('CON')).toBe('reserved');
	});
});

describe('review file names', () => {
	it('never trusts a reviewer name as a path', async () => {
		for (const hostile of [
			'../../etc/passwd',
			'CON',
			'.',
			'..',
			'a/b\\c',
			'张三',
			' ',
			'x'.repeat(300),
			'nul.txt'
		]) {
			const file = await reviewerFileName(hostile);
			expect(file, hostile).toMatch(/^[A-Za-z0-9_-]{0,32}-[0-9a-f]{8}\.jsonl$/);
			expect(file.endsWith(`-${sha8(hostile)}.jsonl`)).toBe(true);
			const run = { runId: 'r1', modelDir: 'm-12345678' };
			expect(parseReviewPath(reviewFilePath(run, file))).toEqual({ run, file });
		}
		expect(await reviewerFileName('Ann Lee')).toBe(`Ann_Lee-${sha8('Ann Lee')}.jsonl`);
		expect(await reviewerFileName('张三')).not.toBe(await reviewerFileName('李四'));
	});

	it('reads back only review paths of the layout, any <name>.jsonl as docs/CLI.md says', () => {
		const run = { runId: 'r1', modelDir: 'm-12345678' };
		expect(parseReviewPath('reviews/r1/m-12345678/a.jsonl')).toEqual({ run, file: 'a.jsonl' });
		expect(parseReviewPath('reviews/r1/m-12345678/.a.jsonl')).toBeNull();
		expect(parseReviewPath('reviews/r1/m-12345678/a.json')).toBeNull();
		expect(parseReviewPath('reviews/r1/m-12345678/a\\b.jsonl')).toBeNull();
		expect(parseReviewPath('reviews/r1/../Ann-12345678.jsonl')).toBeNull();
		expect(parseReviewPath('runs/r1/m-12345678/Ann-12345678.jsonl')).toBeNull();
	});
});

import { describe, expect, it } from 'vitest';
import { CheckpointError } from '../errors';
import { describeIdentity, orderByIdentity, recordIdentity } from './identity';

describe('recordIdentity', () => {
	it.each([
		['a1 tells the two histories of a case apart', 'a1', true],
		['LCA_results tells the two histories apart', 'LCA_results', true],
		['interaction has one record per case', 'interaction', false],
		['DCG_results has one record per case', 'DCG_results', false]
	] as const)('%s', (_, file, paired) => {
		const complete = recordIdentity(file, { case_number: '1', history_type: 'complete' });
		const under = recordIdentity(file, { case_number: '1', history_type: 'underspecified' });
		expect(complete === under).toBe(!paired);
	});

	it('cannot be fooled by separators inside a case_number', () => {
		const a = recordIdentity('a1', { case_number: '1","complete', history_type: 'underspecified' });
		const b = recordIdentity('a1', { case_number: '1', history_type: 'complete' });
		expect(a).not.toBe(b);
	});

	it('reads back as the case and history a person knows', () => {
		expect(
			describeIdentity(
				recordIdentity('a1', { case_number: '2023-041', history_type: 'underspecified' })
			)
		).toBe('case_number 2023-041 (underspecified history)');
		expect(describeIdentity(recordIdentity('DCG_results', { case_number: '7' }))).toBe(
			'case_number 7'
		);
	});
});

describe('orderByIdentity', () => {
	const id = (c: string) => recordIdentity('DCG_results', { case_number: c });
	const order = ['1', '2', '3'].map(id);

	it('sorts items into the given order, keeping them as they are', () => {
		const items = [{ c: '3' }, { c: '1' }, { c: '2' }];
		const sorted = orderByIdentity(items, (x) => id(x.c), order, 'f.jsonl');
		expect(sorted.map((x) => x.c)).toEqual(['1', '2', '3']);
		expect(sorted[0]).toBe(items[1]);
	});

	it.each([
		['a repeated identity', [{ c: '1' }, { c: '1' }], /case_number 1 is saved twice/],
		[
			'an identity outside the order',
			[{ c: '4' }],
			/case_number 4 is saved but is not among the selected cases/
		]
	])('refuses %s', (_, items, pattern) => {
		expect(() => orderByIdentity(items, (x) => id(x.c), order, 'f.jsonl')).toThrow(CheckpointError);
		expect(() => orderByIdentity(items, (x) => id(x.c), order, 'f.jsonl')).toThrow(pattern);
	});
});

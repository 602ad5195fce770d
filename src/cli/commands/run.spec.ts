import { describe, expect, it } from 'vitest';
import { UsageError } from '../../lib/core/errors';
import { parseStages } from './run';

describe('parseStages', () => {
	it('defaults to every stage that writes new records', () => {
		expect(parseStages(undefined)).toEqual([
			'gen',
			'dcg',
			'ljp-direct',
			'ljp-gold',
			'ljp-interaction'
		]);
	});

	it('takes any order, spaces, ljp for the three LJP stages, and each stage once', () => {
		expect(parseStages(' ljp , dcg,ljp-gold')).toEqual([
			'ljp-direct',
			'ljp-gold',
			'ljp-interaction',
			'dcg'
		]);
		expect(parseStages('lca')).toEqual(['lca']);
	});

	it('refuses an empty list and an unknown name, escaped and cut short', () => {
		expect(() => parseStages(' , ')).toThrow(UsageError);
		expect(() => parseStages('gen,\u001b[31mx')).toThrow(/unknown stage "\\u001b\[31mx"/);
		expect(() => parseStages('x'.repeat(500))).toThrow(/"x{40}"/);
	});
});

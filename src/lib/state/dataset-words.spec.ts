/** The Dataset page's words for the dataset worker's reports, in English. */
import { describe, expect, it } from 'vitest';
import { kindsText, progressText } from './dataset-words';
import { LOAD_WORDS } from './worker-words';

describe('kindsText', () => {
	it('lists kinds with their counts', () => {
		expect(
			kindsText([
				{ kind: 'b', count: 3 },
				{ kind: 'c', count: 1 }
			])
		).toBe('3 × b, 1 × c');
	});
});

describe('progressText', () => {
	it('names the phase with bytes or cases', () => {
		expect(progressText(null)).toBe('starting…');
		expect(progressText({ phase: 'reading', done: 12_345_678, total: 59_000_000 })).toBe(
			'reading the file: 12.3 of 59.0 MB'
		);
		expect(progressText({ phase: 'checking', done: 120_000, total: 200_000 })).toBe(
			'checking cases: 120,000 of 200,000'
		);
		expect(progressText({ phase: 'receiving', done: 2000, total: 200_000 })).toBe(
			'preparing cases: 2,000 of 200,000'
		);
	});
});

describe('LOAD_WORDS', () => {
	it('says what the worker said when it stopped, and names a broken reply', () => {
		expect(LOAD_WORDS.stopped('Out of memory')).toContain(
			'the validation worker stopped: Out of memory'
		);
		expect(LOAD_WORDS.notHeld()).toContain('open the file again');
	});
});

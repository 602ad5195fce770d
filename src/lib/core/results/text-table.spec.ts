import { describe, expect, it } from 'vitest';
import { displayWidth, renderTable } from './text-table';

describe('text tables', () => {
	it.each([
		['run1', 4],
		['合同纠纷', 8],
		['未分类 (3)', 10],
		['0.5000 ± —', 10],
		['', 0]
	])('%s takes %i columns', (text, width) => {
		expect(displayWidth(text)).toBe(width);
	});

	it('aligns columns by display width, numbers to the right', () => {
		const out = renderTable(
			['Class', 'Macro-F1'],
			[
				['婚姻家庭纠纷', '0.3333'],
				['未分类', '—']
			],
			['left', 'right']
		).split('\n');
		// Every line ends at the same terminal column, whatever its characters.
		expect(new Set(out.map(displayWidth))).toEqual(new Set([12 + 2 + 8]));
		expect(out[2]).toBe('婚姻家庭纠纷    0.3333');
		expect(out[3]).toBe('未分类               —');
	});
});

import { describe, expect, it } from 'vitest';
import { selectionAfterRead } from './results-selection';

describe('selectionAfterRead', () => {
	it.each([
		{
			name: 'a link shows exactly its runs and names the missing ones',
			inputs: { keys: ['a', 'b', 'c'], linked: ['c', 'x', 'a'], selected: ['b'], known: [] },
			want: { selected: ['c', 'a'], missing: ['x'] }
		},
		{
			name: 'without a link, runs shown stay shown and new runs are added',
			inputs: { keys: ['a', 'b', 'c'], linked: null, selected: ['b'], known: ['a', 'b'] },
			want: { selected: ['b', 'c'], missing: null }
		},
		{
			name: 'a run the user hid stays hidden; a deleted run leaves the selection',
			inputs: { keys: ['a', 'c'], linked: null, selected: ['b', 'c'], known: ['a', 'b', 'c'] },
			want: { selected: ['c'], missing: null }
		}
	])('$name', ({ inputs, want }) => {
		expect(selectionAfterRead(inputs)).toEqual(want);
	});
});

import { beforeEach, describe, expect, it, vi } from 'vitest';

const setFlagsFromString = vi.fn();
vi.mock('node:v8', () => ({ setFlagsFromString }));
const { HEAP_GROWING_PERCENT, limitHeapGrowth } = await import('./heap-growth');

describe('limitHeapGrowth', () => {
	beforeEach(() => setFlagsFromString.mockClear());

	it("sets V8's heap growing factor when node was given none", () => {
		limitHeapGrowth(['--enable-source-maps'], '--max-old-space-size=4096');
		expect(setFlagsFromString).toHaveBeenCalledWith(
			`--heap-growing-percent=${HEAP_GROWING_PERCENT}`
		);
	});

	it("keeps the user's own factor, from node's options or NODE_OPTIONS", () => {
		limitHeapGrowth(['--heap-growing-percent=300'], undefined);
		limitHeapGrowth([], '--inspect --heap_growing_percent=20');
		expect(setFlagsFromString).not.toHaveBeenCalled();
	});
});

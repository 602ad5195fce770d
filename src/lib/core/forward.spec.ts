import { describe, expect, it } from 'vitest';
import { forwarding } from './forward';

class Counter {
	#count = 0;
	readonly label = 'counter';
	add(n: number): number {
		this.#count += n;
		return this.#count;
	}
	get count(): number {
		return this.#count;
	}
}

describe('forwarding', () => {
	it('answers the overrides and forwards every other member, private fields intact', () => {
		const inner = new Counter();
		const calls: number[] = [];
		const view = forwarding(inner, {
			add: (n: number) => {
				calls.push(n);
				return inner.add(n * 2);
			}
		});
		expect(view.add(1)).toBe(2);
		expect(calls).toEqual([1]);
		expect(view.count).toBe(2);
		expect(view.label).toBe('counter');
		// A method added to the target later is forwarded too.
		(inner as unknown as { extra: () => number }).extra = function (this: Counter) {
			return this.count;
		};
		expect((view as unknown as { extra: () => number }).extra()).toBe(2);
		expect('extra' in view && 'add' in view).toBe(true);
	});
});

import { describe, expect, it } from 'vitest';
import { Latest } from './latest';

describe('Latest', () => {
	it('keeps only the answer of the request begun last', () => {
		const latest = new Latest();
		const first = latest.begin();
		const second = latest.begin();
		expect([first(), second()]).toEqual([false, true]);
	});

	it('drops every answer on its way when cancelled, and watching starts nothing', () => {
		const latest = new Latest();
		const asked = latest.begin();
		const watched = latest.watch();
		expect([asked(), watched()]).toEqual([true, true]);
		latest.cancel();
		expect([asked(), watched()]).toEqual([false, false]);
	});
});

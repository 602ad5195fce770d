import { describe, expect, it } from 'vitest';
import { linkSignal, onAbort } from './abort-fan-out';

/** A signal that counts the 'abort' listeners registered on it right now, and the most at once. */
function countedSignal() {
	const controller = new AbortController();
	const { signal } = controller;
	const live = new Set<unknown>();
	const count = { now: 0, most: 0 };
	const add = signal.addEventListener.bind(signal);
	const remove = signal.removeEventListener.bind(signal);
	signal.addEventListener = ((
		type: string,
		listener: () => void,
		options?: AddEventListenerOptions
	) => {
		if (type === 'abort') {
			live.add(listener);
			count.now = live.size;
			count.most = Math.max(count.most, live.size);
		}
		add(type, listener, options);
	}) as typeof signal.addEventListener;
	signal.removeEventListener = ((type: string, listener: () => void) => {
		if (type === 'abort') {
			live.delete(listener);
			count.now = live.size;
		}
		remove(type, listener);
	}) as typeof signal.removeEventListener;
	return { controller, signal, count };
}

describe('onAbort', () => {
	it('puts one listener on the signal however many wait, and removes it when the last is done', () => {
		const { signal, count } = countedSignal();
		const stops = Array.from({ length: 50 }, () => onAbort(signal, () => {}));
		expect(count.most).toBe(1);
		for (const stop of stops.slice(0, 49)) stop();
		expect(count.now).toBe(1);
		stops[49]();
		expect(count.now).toBe(0);
		// A later wave listens again.
		const stop = onAbort(signal, () => {});
		expect(count.now).toBe(1);
		stop();
		expect(count.now).toBe(0);
	});

	it('calls every listener still waiting when the signal aborts, and none that stopped', () => {
		const { controller, signal } = countedSignal();
		const called: string[] = [];
		const listener = () => called.push('same function');
		onAbort(signal, listener);
		onAbort(signal, listener);
		const stopped = onAbort(signal, () => called.push('stopped'));
		onAbort(signal, () => called.push('other'));
		stopped();
		controller.abort();
		expect(called.sort()).toEqual(['other', 'same function', 'same function']);
		// Stopping after the abort is harmless.
		stopped();
	});

	it('calls the listener at once on a signal that has aborted', () => {
		let called = 0;
		const stop = onAbort(AbortSignal.abort(), () => called++);
		expect(called).toBe(1);
		stop();
	});
});

describe('linkSignal', () => {
	it('aborts with the parent, carrying its reason; a disposed link stays unaborted', () => {
		const { controller, signal, count } = countedSignal();
		const kept = linkSignal(signal);
		const disposed = linkSignal(signal);
		disposed.dispose();
		disposed.dispose();
		expect(count.now).toBe(1);
		const reason = new Error('Stop pressed');
		controller.abort(reason);
		expect(kept.signal.aborted).toBe(true);
		expect(kept.signal.reason).toBe(reason);
		expect(disposed.signal.aborted).toBe(false);
	});

	it('without a parent gives a signal that never aborts on its own', () => {
		const link = linkSignal();
		link.dispose();
		expect(link.signal.aborted).toBe(false);
	});
});

import { describe, expect, it } from 'vitest';
import { ByteBudget } from './fs-store-reorder';

/** A task that records when it starts and ends, and ends when told to. */
function gated(log: string[], name: string) {
	let end!: () => void;
	const ended = new Promise<void>((resolve) => (end = resolve));
	const task = async () => {
		log.push(`${name} start`);
		await ended;
		log.push(`${name} end`);
	};
	return { task, end };
}

const ticks = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('ByteBudget (the bytes reorders hold at once)', () => {
	it('runs tasks together while their bytes fit, and holds back one that does not fit', async () => {
		const budget = new ByteBudget(100);
		const log: string[] = [];
		const a = gated(log, 'a');
		const b = gated(log, 'b');
		const c = gated(log, 'c');
		const runs = [budget.use(40, a.task), budget.use(50, b.task), budget.use(20, c.task)];
		await ticks();
		expect(log).toEqual(['a start', 'b start']);
		a.end();
		await ticks();
		expect(log).toEqual(['a start', 'b start', 'a end', 'c start']);
		b.end();
		c.end();
		await Promise.all(runs);
	});

	it('runs a task larger than the budget alone, and a failing task frees its bytes', async () => {
		const budget = new ByteBudget(100);
		const log: string[] = [];
		const big = gated(log, 'big');
		const small = gated(log, 'small');
		const failing = budget.use(10, async () => {
			throw new Error('disk full');
		});
		await expect(failing).rejects.toThrow('disk full');
		const runs = [budget.use(500, big.task), budget.use(1, small.task)];
		await ticks();
		expect(log).toEqual(['big start']);
		big.end();
		await ticks();
		expect(log).toEqual(['big start', 'big end', 'small start']);
		small.end();
		await Promise.all(runs);
	});
});

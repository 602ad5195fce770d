/**
 * `npm run bench [-- NAME…]`: runs every bench module (or those whose name contains a given
 * word) and prints one table. Exits 1 when a row misses its target. Add a bench by writing
 * a module that exports a `BenchModule` and listing it in `BENCHES`.
 */
import type { BenchModule, BenchRow } from './types';
import { validationBench } from './validation.bench';

const BENCHES: BenchModule[] = [validationBench];

const filters = process.argv.slice(2);
const selected = BENCHES.filter(
	(b) => filters.length === 0 || filters.some((f) => b.name.includes(f))
);

const rows: Array<BenchRow & { bench: string }> = [];
for (const bench of selected) {
	for (const row of await bench.run()) rows.push({ ...row, bench: bench.name });
}

const met = (r: BenchRow) =>
	r.target === null
		? null
		: (r.better ?? 'lower') === 'lower'
			? r.value <= r.target
			: r.value >= r.target;
const format = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(2));

const table = [
	['name', 'value', 'unit', 'target', 'met?'],
	...rows.map((r) => {
		const ok = met(r);
		const target =
			r.target === null
				? '—'
				: `${(r.better ?? 'lower') === 'lower' ? '≤' : '≥'} ${format(r.target)}`;
		return [r.name, format(r.value), r.unit, target, ok === null ? '—' : ok ? 'yes' : 'NO'];
	})
];
const widths = table[0].map((_, i) => Math.max(...table.map((row) => row[i].length)));
for (const [i, row] of table.entries()) {
	console.log(
		row
			.map((cell, c) => (c === 1 ? cell.padStart(widths[c]) : cell.padEnd(widths[c])))
			.join('  ')
			.trimEnd()
	);
	if (i === 0) console.log(widths.map((w) => '-'.repeat(w)).join('  '));
}
if (rows.some((r) => met(r) === false)) process.exitCode = 1;

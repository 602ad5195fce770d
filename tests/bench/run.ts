/**
 * `npm run bench [-- NAME…]`: runs every bench module (or those whose name contains a given
 * word) and prints one table. A bench that throws becomes an "error: …" row and the others
 * still run. Exits 1 when a row misses its target, 2 when a bench failed. Add a bench by
 * writing a module that exports a `BenchModule` and listing it in `BENCHES`.
 */
import { availableParallelism, loadavg } from 'node:os';
import { bundleBench } from './bundle.bench';
import { engineBenches } from './engine.bench';
import { idbBench } from './idb.bench';
import { resultsBench } from './results.bench';
import { siteSizeBench } from './site-size.bench';
import type { BenchModule, BenchRow } from './types';
import { validationBench } from './validation.bench';

const BENCHES: BenchModule[] = [
	...engineBenches,
	validationBench,
	idbBench,
	bundleBench,
	resultsBench,
	siteSizeBench
];

const filters = process.argv.slice(2);
const selected = BENCHES.filter(
	(b) => filters.length === 0 || filters.some((f) => b.name.includes(f))
);

type Row = (BenchRow & { bench: string }) | { bench: string; name: string; error: string };

// Other work on the machine slows every figure; the load is printed with the table to say how much.
const loadAtStart = loadavg()[0];

const rows: Row[] = [];
for (const bench of selected) {
	// Progress goes to stderr so stdout holds only the table.
	process.stderr.write(`bench: ${bench.name}…\n`);
	try {
		for (const row of await bench.run()) rows.push({ ...row, bench: bench.name });
	} catch (e) {
		rows.push({ bench: bench.name, name: bench.name, error: (e as Error)?.message ?? String(e) });
	}
}

const met = (r: Row) =>
	'error' in r || r.target === null
		? null
		: (r.better ?? 'lower') === 'lower'
			? r.value <= r.target
			: r.value >= r.target;
const format = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(2));
const firstLine = (text: string) => {
	const line = text.split('\n')[0];
	return line.length > 90 ? `${line.slice(0, 89)}…` : line;
};

const table = [
	['name', 'value', 'unit', 'target', 'met?'],
	...rows.map((r) => {
		if ('error' in r) return [r.name, `error: ${firstLine(r.error)}`, '', '', 'NO'];
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
console.log(
	`\n${new Date().toISOString().slice(0, 10)}, ${availableParallelism()} cores, load average ` +
		`(1 min) ${loadAtStart.toFixed(2)} at start, ${loadavg()[0].toFixed(2)} at end`
);
const errors = rows.filter((r) => 'error' in r);
for (const r of errors) console.error(`\n${r.bench} failed:\n${r.error}`);
if (errors.length > 0) process.exitCode = 2;
else if (rows.some((r) => met(r) === false)) process.exitCode = 1;

/**
 * Holm's step-down correction (Holm 1979) of a family of p-values: sorted ascending, the k-th
 * smallest (from 0) is multiplied by (m − k), capped at 1, and made non-decreasing. It controls
 * the family-wise error rate at α with no assumption on how the tests depend on each other,
 * which pairwise comparisons on the same cases certainly do. Null p-values (not tested) are
 * left null and do not count in m.
 */
export function holm(p: readonly (number | null)[]): (number | null)[] {
	const order = p
		.map((v, i) => [v, i] as const)
		.filter((e): e is readonly [number, number] => e[0] !== null)
		.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
	const m = order.length;
	const out: (number | null)[] = p.map(() => null);
	let running = 0;
	order.forEach(([v, i], k) => {
		running = Math.max(running, Math.min(1, (m - k) * v));
		out[i] = running;
	});
	return out;
}

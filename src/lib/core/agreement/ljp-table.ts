/**
 * LJP's figures from a gold × prediction table of claim counts (rows gold, columns predicted, in
 * `VERDICTS` order), and the table with the judge's extraction errors undone by the matrix
 * method (README.md, "Corrected LJP"). Pure arithmetic on 3 × 3 arrays.
 */
import { VERDICTS } from '../dataset/names';
import { accuracy, orNull, qwk } from '../metrics/kernel';

/** `table[g][p]`: claims of gold verdict g the prediction has as p (counts or weights). */
export type Table = number[][];

/** QWK of a table, by the kernel's `qwk`; null when undefined. */
export const tableQwk = (t: Table): number | null => orNull(qwk(t.flat()));

/** Share of claims on the diagonal, by the kernel's `accuracy`; null for an empty table. */
export const tableAccuracy = (t: Table): number | null => orNull(accuracy(t.flat()));

/** The inverse of a 3 × 3 matrix by its adjugate; null when (nearly) singular. */
export function invert3(m: number[][]): number[][] | null {
	const c = (i: number, j: number) => {
		const [r0, r1] = [0, 1, 2].filter((x) => x !== i);
		const [c0, c1] = [0, 1, 2].filter((x) => x !== j);
		return (-1) ** (i + j) * (m[r0][c0] * m[r1][c1] - m[r0][c1] * m[r1][c0]);
	};
	const det = m[0][0] * c(0, 0) + m[0][1] * c(0, 1) + m[0][2] * c(0, 2);
	if (Math.abs(det) < 1e-9) return null;
	return [0, 1, 2].map((i) => [0, 1, 2].map((j) => c(j, i) / det));
}

/**
 * The table of true predictions from the judge's: each gold row o (the judge's extraction of the
 * claims of that gold verdict) is o = t · M with `M[t][j]` = P(judge j | reviewer t), so
 * t = o · M⁻¹; negative cells are set to 0 and the row scaled back to its claims. Null when M
 * cannot be inverted (a judge that cannot tell some verdicts apart).
 */
export function correctTable(observed: Table, misclassification: number[][]): Table | null {
	const inv = invert3(misclassification);
	if (inv === null) return null;
	return observed.map((o) => {
		const total = o.reduce((a, b) => a + b, 0);
		const t = VERDICTS.map((_, j) =>
			Math.max(
				0,
				o.reduce((a, x, i) => a + x * inv[i][j], 0)
			)
		);
		const sum = t.reduce((a, b) => a + b, 0);
		return sum <= 0 ? t : t.map((x) => (x * total) / sum);
	});
}

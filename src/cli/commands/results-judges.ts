/** `results --judges A,B`: judge–judge agreement and rank stability (metrics/README.md). */
import type { BootstrapOptions } from '../../lib/core/metrics/bootstrap';
import { formatJudges } from '../../lib/core/results/format-judges';
import { compareJudges } from '../../lib/core/results/judges';
import { UsageError } from '../../lib/core/errors';
import { escapeControl, escapeStrings } from '../../lib/core/text/escape-control';
import { fsLayoutSource } from '../fs-source';
import type { CliIo } from '../types';

export const JUDGES_USAGE = `       npx lexpilot results --judges RUN_A,RUN_B [--model M] [--json]

--judges RUN_A,RUN_B compares the judges of two runs of the same outputs (a run and its
re-judged run, "lexpilot rejudge"), paired by model: per stage the agreement rate, Cohen's κ
with a 95% bootstrap interval over the decisions, and the confusion matrix A × B; with two
models or more, Kendall's τ-b of the models' ranking under the two judges for every rate, its
95% case-bootstrap interval, and the models that swap places.`;

export async function printJudges(
	value: string,
	options: { root: string; model?: string; json: boolean; bootstrap: BootstrapOptions },
	io: CliIo
): Promise<number> {
	const ids = value.split(',').map((s) => s.trim());
	if (ids.length !== 2 || ids.some((id) => id === '')) {
		throw new UsageError(
			`--judges ${escapeControl(JSON.stringify(value))}: expected two run ids, RUN_A,RUN_B.`
		);
	}
	const report = await compareJudges(await fsLayoutSource(options.root), {
		a: ids[0],
		b: ids[1],
		model: options.model,
		bootstrap: options.bootstrap
	});
	if (report.models.length === 0) {
		io.stderr(
			`error: no model has both run ${escapeControl(ids[0])} and run ${escapeControl(ids[1])} under ${escapeControl(options.root)}.\n`
		);
		return 2;
	}
	io.stdout(
		options.json
			? `${JSON.stringify({ judges: report }, null, 2)}\n`
			: formatJudges(escapeStrings(report))
	);
	return 0;
}

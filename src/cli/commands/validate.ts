/** `validate --dataset F`: check a dataset before spending any API call on it (PROTOCOL.md §8). */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { Dataset, DatasetProblem } from '../../lib/core/dataset/load';
import { classOf } from '../../lib/core/dataset/categories';
import { formatNumber } from '../../lib/core/report/format';
import { displayWidth } from '../../lib/core/results/text-table';
import { escapeControl } from '../../lib/core/text/escape-control';
import { GENERATION_OPTIONS } from '../args';
import { formatInvalidDataset, readDatasetFile } from '../dataset-file';
import { chooseDataset, DEFAULT_DATASET } from '../dataset-path';
import type { CliIo, CommandHandler } from '../types';

const OPTIONS = {
	dataset: GENERATION_OPTIONS.dataset,
	'complete-field': GENERATION_OPTIONS['complete-field'],
	'underspecified-field': GENERATION_OPTIONS['underspecified-field'],
	categories: GENERATION_OPTIONS.categories
} as const;

export const validate: CommandHandler = {
	summary: 'check a dataset file and print its summary (or every problem)',
	usage: `Usage: npx lexpilot validate --dataset FILE [options]

Checks every PROTOCOL.md §1 rule and prints a summary (exit 0), or the problems, one a line (exit 2):
the first 500, then how many more of each kind (a broken file can hold millions).

Options:
  --dataset FILE               LexPilot dataset JSON [$LEXPILOT_DATASET, else ./${DEFAULT_DATASET}]
  --complete-field NAME        field of the complete history, when it is not detected
  --underspecified-field NAME  field of the underspecified history, when it is not detected
  --categories FILE            cause → class map JSON [built-in six classes]
`,
	async run(args: string[], io: CliIo): Promise<number> {
		const { values } = parseArgs({ args, options: OPTIONS, strict: true });
		const choice = chooseDataset(values.dataset, io.env.LEXPILOT_DATASET, io.cwd);
		const historyFields = {
			...(values['complete-field'] ? { complete: values['complete-field'] } : {}),
			...(values['underspecified-field'] ? { underspecified: values['underspecified-field'] } : {})
		};
		const result = await readDatasetFile(choice.path, {
			label: choice.label,
			notFound: choice.notFound,
			historyFields,
			categoriesPath: values.categories ? resolve(io.cwd, values.categories) : null
		});
		if (!result.ok) {
			io.stderr(`${formatInvalidDataset(choice.label, result)}\n`);
			return 2;
		}
		io.stdout(
			summaryText(
				choice.label,
				result.dataset,
				result.warnings,
				result.warningCount,
				values.categories
			)
		);
		return 0;
	}
};

function summaryText(
	label: string,
	dataset: Dataset,
	warnings: DatasetProblem[],
	warningCount: number,
	categoriesFile: string | undefined
): string {
	const s = dataset.summary;
	const m = s.messages;
	// Causes and classes come from the dataset and the category map: one line each, escaped.
	const lines = [
		`${escapeControl(label)}: valid LexPilot dataset`,
		`  sha256          ${dataset.sha256}`,
		`  cases           ${s.cases}`,
		`  histories       ${s.histories} (messages per history: min ${m.min}, max ${m.max}, ` +
			`mean ${formatNumber(m.mean, 2)}; ${m.total} in all)`,
		`  extra pairs     ${s.extraPairs} case${s.extraPairs === 1 ? '' : 's'} with more than one user message`,
		`  causes          ${s.causes}`,
		`  history fields  complete = ${escapeControl(dataset.historyFields.complete)}, ` +
			`underspecified = ${escapeControl(dataset.historyFields.underspecified)}`,
		`  category map    ${categoriesFile === undefined ? 'built-in (src/lib/core/dataset/CATEGORIES.md)' : escapeControl(categoriesFile)}`,
		'',
		'Classes (cases):',
		...table(Object.entries(s.classes).map(([cls, n]) => [escapeControl(cls), String(n)])),
		'',
		'Causes of action (cases, class):',
		...table(
			Object.entries(s.causeCounts).map(([cause, n]) => [
				escapeControl(cause),
				String(n),
				escapeControl(classOf(cause, dataset.categories))
			])
		)
	];
	if (warnings.length) {
		lines.push(
			'',
			`Warnings (${warningCount}):`,
			...warnings.map((w) => `  ${escapeControl(w.text)}`)
		);
	}
	return `${lines.join('\n')}\n`;
}

/** Aligned columns; East Asian wide characters take two terminal cells (`displayWidth`). */
function table(rows: string[][]): string[] {
	const widths: number[] = [];
	for (const row of rows)
		row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, displayWidth(cell))));
	return rows.map(
		(row) =>
			'  ' +
			row
				.map((cell, i) =>
					i === row.length - 1 ? cell : cell + ' '.repeat(widths[i] - displayWidth(cell) + 2)
				)
				.join('')
	);
}

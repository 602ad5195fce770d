/** The problems and warnings a dataset file has as a whole, said as codes. */
import { classOf } from './categories';
import { type HistoryFieldDetection } from './history-fields';
import { JsonSyntaxError } from './ordered-json';
import { problem, type DatasetProblem } from './problems';
import { UNCLASSIFIED, type Case, type CategoryMap } from './types';
import { coded, type CoreText } from '../said';

export function undecidedProblem(
	detection: Extract<HistoryFieldDetection, { ok: false }>
): DatasetProblem {
	const { candidates, reasons } = detection;
	return problem(
		{ field: 'history fields' },
		candidates.length
			? coded(
					'history_fields_undecided',
					{ candidates: candidates.join(', ') },
					{ reason: reasons }
				)
			: coded('history_fields_undecided', {}, { reason: reasons, candidates: [NONE()] })
	);
}

/** One warning per unknown cause (not per case), naming its first case and how many it has. */
export function unclassifiedWarnings(
	cases: readonly Case[],
	categories: CategoryMap
): DatasetProblem[] {
	const unknown = new Map<string, { first: Case; count: number }>();
	for (const c of cases) {
		if (classOf(c.cause_of_action, categories) !== UNCLASSIFIED) continue;
		const seen = unknown.get(c.cause_of_action);
		if (seen) seen.count++;
		else unknown.set(c.cause_of_action, { first: c, count: 1 });
	}
	return [...unknown].map(([cause, { first, count }]) =>
		problem(
			{ caseIndex: first.index, caseNumber: first.case_number, field: 'cause_of_action' },
			coded('cause_unclassified', { cause, count, unclassified: UNCLASSIFIED })
		)
	);
}

/** A file that is not JSON, as a code; `detail` stays the parser's English. */
export function syntaxError(e: JsonSyntaxError): CoreText {
	return coded('json_syntax', { line: e.line, column: e.column, detail: e.detail });
}

const NONE = () => coded('names_none', {});

/** `code` with its `candidates` listed, or said to be none. */
export function listOrNone(
	code: 'history_field_absent',
	params: { name: string },
	names: string[]
): CoreText {
	return names.length
		? coded(code, { ...params, candidates: names.join(', ') })
		: coded(code, params, { candidates: [NONE()] });
}

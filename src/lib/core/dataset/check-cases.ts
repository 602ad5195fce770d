/** Every case of a file checked with the history fields decided on the whole file. */
import { checkCase, type CaseContext } from './check-case';
import { HistoryFieldTally } from './history-fields';
import { problem, ProblemCollector } from './problems';
import { type Case, type HistoryFields } from './types';
import {
	type LoadOptions,
	PROGRESS_STEPS,
	type Mapping,
	type Items,
	type Checked
} from './load-types';
import { listOrNone, undecidedProblem } from './load-problems';

/** Checks every case with the history fields decided on the whole file (`tally` holds every case). */
export function checkCases(
	items: Items,
	tally: HistoryFieldTally,
	onProgress?: LoadOptions['onProgress']
): Checked {
	// Bounded: past MAX_LISTED_PROBLEMS each problem is only counted.
	const problems = new ProblemCollector('problem');
	const warnings = new ProblemCollector('warning');
	const detection = tally.decide();
	let fields: HistoryFields | null = null;
	let mapping: Mapping | undefined;
	const absentFields = new Set<string>();
	if (detection.ok) {
		fields = detection.fields;
		for (const role of ['complete', 'underspecified'] as const) {
			const name = fields[role];
			if (!tally.has(name)) {
				absentFields.add(name);
				problems.add(
					problem(
						{ field: `${role} history` },
						listOrNone('history_field_absent', { name }, detection.candidates)
					)
				);
			}
		}
	} else {
		mapping = { candidates: detection.candidates, detected: detection.detected };
		problems.add(undecidedProblem(detection));
	}

	const ctx: CaseContext = { fields, absentFields, seenCaseNumbers: new Map<string, number>() };
	const cases: Case[] = [];
	const checkStep = Math.max(1, Math.ceil(items.count / PROGRESS_STEPS));
	items.each((value, index) => {
		if (onProgress && index % checkStep === 0) {
			onProgress({ phase: 'checking', done: index, total: items.count });
		}
		const check = checkCase(value, index, ctx);
		problems.addAll(check.problems);
		warnings.addAll(check.warnings);
		if (check.kase) cases.push(check.kase);
	});
	return {
		problems: problems.list(),
		problemCount: problems.total,
		moreProblems: problems.moreByKind(),
		...(mapping ? { mapping } : {}),
		warnings,
		cases,
		fields
	};
}

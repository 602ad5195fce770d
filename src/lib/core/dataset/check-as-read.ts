/** The cases of a file checked as they are read, the history fields decided on the way. */
import { checkCase, type CaseContext } from './check-case';
import { HistoryFieldTally } from './history-fields';
import { JsonObject } from './ordered-json';
import { MAX_LISTED_PROBLEMS, ProblemCollector } from './problems';
import { type Case, type HistoryFields } from './types';
import { type LoadOptions, PROGRESS_STEPS, type Items, type Checked } from './load-types';
import { checkCases } from './check-cases';
import { undecidedProblem } from './load-problems';

/**
 * Checks the cases as they are read, deciding the history fields on the cases read so far
 * (for a usual file, the first case settles them). When the decision on the whole file differs
 * from one a case was checked with, or a mapped field is in no case (whose per-case problems
 * give way to one for the file), the cases are read and checked again with the whole file's
 * decision, so the result is always what deciding first would give.
 */
export function checkAsRead(
	items: Items,
	explicit: Partial<HistoryFields> | undefined,
	onProgress: LoadOptions['onProgress']
): Checked {
	const tally = new HistoryFieldTally(explicit);
	const ctx: CaseContext = {
		fields: null,
		absentFields: new Set(),
		seenCaseNumbers: new Map()
	};
	let steady = true;
	let problems = null as ProblemCollector | null;
	const warnings = new ProblemCollector('warning');
	const cases: Case[] = [];
	const checkStep = Math.max(1, Math.ceil(items.count / PROGRESS_STEPS));
	items.each((value, index) => {
		if (onProgress && index % checkStep === 0) {
			onProgress({ phase: 'checking', done: index, total: items.count });
		}
		if (value instanceof JsonObject && tally.add(value)) {
			const decided = tally.decide();
			const fields = decided.ok ? decided.fields : null;
			if (index > 0 && !sameFields(fields, ctx.fields)) steady = false;
			ctx.fields = fields;
		}
		// Undecided fields make one problem for the file, listed first: its place is kept free.
		problems ??= new ProblemCollector(
			'problem',
			ctx.fields ? MAX_LISTED_PROBLEMS : MAX_LISTED_PROBLEMS - 1
		);
		const check = checkCase(value, index, ctx);
		problems.addAll(check.problems);
		warnings.addAll(check.warnings);
		if (check.kase) cases.push(check.kase);
	});

	const detection = tally.decide();
	if (steady && problems) {
		if (detection.ok && sameFields(detection.fields, ctx.fields)) {
			const { complete, underspecified } = detection.fields;
			if (tally.has(complete) && tally.has(underspecified)) {
				return {
					problems: problems.list(),
					problemCount: problems.total,
					moreProblems: problems.moreByKind(),
					warnings,
					cases,
					fields: detection.fields
				};
			}
		} else if (!detection.ok && ctx.fields === null) {
			return {
				problems: [undecidedProblem(detection), ...problems.list()],
				problemCount: problems.total + 1,
				moreProblems: problems.moreByKind(),
				mapping: { candidates: detection.candidates, detected: detection.detected },
				warnings,
				cases,
				fields: null
			};
		}
	}
	cases.length = 0;
	return checkCases(items, tally);
}

function sameFields(a: HistoryFields | null, b: HistoryFields | null): boolean {
	return (
		a === b || (!!a && !!b && a.complete === b.complete && a.underspecified === b.underspecified)
	);
}

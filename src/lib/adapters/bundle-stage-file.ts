/** One stage file of a bundle read: its lines, its records checked, its cases the run's, each once. */
import { caseKey, type StageFile } from '../core/record-names';
import { STAGE_FILES, type AnyRecord } from '../core/records';
import { parseJsonl } from '../core/jsonl';
import { coded } from '../core/said';
import { recordIdentity } from '../core/store/identity';
import { readJsonlLines } from './bundle-lines';
import type { Problems } from './bundle-problems';
import type { BundleFile } from './bundle-types';

/** Parses one stage file and checks that its cases are the run's selected cases, each once. */
export function readStageFile(
	file: StageFile,
	bytes: Uint8Array,
	label: string,
	selected: ReadonlySet<string>,
	problems: Problems
): BundleFile | null {
	const read = readJsonlLines(
		bytes,
		label,
		problems,
		(text) => parseJsonl(text, STAGE_FILES[file].schema, label) as AnyRecord[]
	);
	if (read === null) return null;
	const { entries: records, lines } = read;
	const first = new Map<string, number>();
	let ok = true;
	records.forEach((record, i) => {
		if (!selected.has(caseKey(record.case_number))) {
			problems.push(
				coded('bundle_case_not_selected', {
					file: label,
					line: i + 1,
					caseNumber: String(record.case_number),
					count: selected.size
				})
			);
			ok = false;
			return;
		}
		const identity = recordIdentity(file, record);
		const line = first.get(identity);
		if (line !== undefined) {
			problems.push(
				'history_type' in record && typeof record.history_type === 'string'
					? coded('bundle_case_twice_role', {
							file: label,
							at: i + 1,
							caseNumber: String(record.case_number),
							role: record.history_type,
							line
						})
					: coded('bundle_case_twice', {
							file: label,
							at: i + 1,
							caseNumber: String(record.case_number),
							line
						})
			);
			ok = false;
		} else first.set(identity, i + 1);
	});
	return ok ? { lines, records } : null;
}

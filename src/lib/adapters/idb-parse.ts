/** Record rows of the browser store read back: parsed and checked, the first bad line named. */
import { CheckpointError } from '../core/errors';
import { stageFilePath, type RunKey } from '../core/layout';
import type { StageFile } from '../core/record-names';
import type { AnyRecord } from '../core/records';
import { coded } from '../core/said';
import { checkRecord } from '../core/store/checks';
import type { RecordRow } from './idb-rows';
import { storedLabel } from './idb-write';

/**
 * Parses and checks record rows, naming the line of the first bad one: its position among `rows`
 * (a whole file), or with `atSeq` its own (some rows of a file, e.g. one case's).
 */
export function parseRecordRows(
	run: RunKey,
	file: StageFile,
	rows: readonly Pick<RecordRow, 'json' | 'seq'>[],
	atSeq = false
): AnyRecord[] {
	const label = storedLabel(stageFilePath(run, file));
	return rows.map((row, i) => {
		const line = atSeq ? row.seq + 1 : i + 1;
		let value: unknown;
		try {
			value = JSON.parse(row.json);
		} catch (e) {
			throw new CheckpointError([
				coded('jsonl_not_json', { file: label, line, detail: (e as Error).message })
			]);
		}
		return checkRecord(file, value, `${label}, line ${line}`);
	});
}

/**
 * The stage files of a stored run that hold fewer records than its selected cases need, named
 * for the Results page's list of incomplete runs.
 */
import { STAGE_PATHS, type StageFile } from '$lib/core/record-names';
import type { StoredRun } from '$lib/core/store/types';
import { m } from '$lib/paraglide/messages';
import { STAGES } from './run-progress';

/** A stage file holding fewer records than the run's selected cases need. */
export interface ShortFile {
	file: StageFile;
	/** Records it holds (0: the file is empty, or was absent). */
	have: number;
	/** Records the selected cases need (a1 and LCA: two per case). */
	expected: number;
}

/** The short files of every started, unfinished stage, in stage order. */
export function shortFiles(run: Pick<StoredRun, 'counts' | 'manifest'>): ShortFile[] {
	const total = run.manifest.dataset.selected_case_numbers.length;
	const short: ShortFile[] = [];
	for (const { files } of STAGES) {
		if (!files.some((f) => run.counts[f] > 0)) continue;
		for (const file of files) {
			const expected = total * STAGE_PATHS[file].perCase;
			if (run.counts[file] < expected) short.push({ file, have: run.counts[file], expected });
		}
	}
	return short;
}

/** One short file, in the interface language: `DCG_results is empty …`, `LJP_gold: 2 of 6 records`. */
export function shortFileText(s: ShortFile): string {
	return s.have === 0
		? m.results_incomplete_empty({ file: s.file, expected: s.expected })
		: m.results_incomplete_file({ file: s.file, have: s.have, expected: s.expected });
}

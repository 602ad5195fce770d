/**
 * The finished run a re-judged run starts from (PROTOCOL.md §5, `rejudged_from`): its manifest,
 * the stages whose judge calls it made, and the saved generation records those stages read.
 */
import type { Case } from '../../dataset/types';
import { CheckpointError } from '../../errors';
import { stageFilePath, type RunKey } from '../../layout';
import type { StageFile } from '../../record-names';
import type { AnyRecord, Manifest } from '../../records';
import { coded } from '../../said';
import { recordHead, type RecordHead } from '../../store/heads';
import { PAIRED_FILES, recordIdentity } from '../../store/identity';
import type { CheckpointStore } from '../../store/types';
import { HISTORY_TYPES, idOf } from '../stages/shared';
import type { StageName } from '../types';

/** What re-judging a stage reads from the source run, copies into the new one, and judges again. */
export interface Rejudging {
	/** Generation files read from the source. */
	reads: readonly StageFile[];
	/** Of `reads`, those copied record for record into the new run. */
	copies: readonly StageFile[];
	/** The judge file made again. */
	judged: StageFile;
}

/**
 * The stages a run can be re-judged in, in the order they run. gen copies a1 and the interaction
 * (whose user-model turns and in-round labels steered generation, so they stay the source's);
 * ljp-interaction reads the interaction from the source, so it needs no gen of its own.
 */
export const REJUDGING: Readonly<Partial<Record<StageName, Rejudging>>> = {
	gen: { reads: ['a1', 'interaction'], copies: ['a1', 'interaction'], judged: 'LCA_results' },
	dcg: { reads: ['force_ask'], copies: ['force_ask'], judged: 'DCG_results' },
	'ljp-direct': { reads: ['a1_direct'], copies: ['a1_direct'], judged: 'LJP_direct' },
	'ljp-gold': { reads: ['a1_force_judge'], copies: ['a1_force_judge'], judged: 'LJP_gold' },
	'ljp-interaction': { reads: ['interaction'], copies: [], judged: 'LJP_interaction' }
};

/** A saved record of the source run and its head. */
export interface SourceRecord {
	record: AnyRecord;
	head: RecordHead;
}

export interface RejudgeSource {
	run: RunKey;
	manifest: Manifest;
	/** The stages to re-judge: those whose judge file the source holds whole, in run order. */
	stages: StageName[];
	/** The records of every file the stages read, by identity. */
	records: Map<StageFile, Map<string, SourceRecord>>;
}

/** Record identities of `file` for `cases`, in dataset order. */
export function identitiesOf(file: StageFile, cases: readonly Case[]): string[] {
	return PAIRED_FILES.has(file)
		? cases.flatMap((kase) => HISTORY_TYPES.map((type) => idOf(file, kase, type)))
		: cases.map((kase) => idOf(file, kase));
}

/**
 * Reads the source run for `cases` (its selected ones). A stage is re-judged when its judge file
 * holds every selected case; one that holds some only, or whose generation file lacks some, is a
 * `CheckpointError`: a finished run is re-judged, never half of one.
 */
export async function readRejudgeSource(
	store: CheckpointStore,
	run: RunKey,
	manifest: Manifest,
	cases: readonly Case[]
): Promise<RejudgeSource> {
	const wanted = (file: StageFile) => new Set(identitiesOf(file, cases));
	const readFile = async (file: StageFile) => {
		const ids = wanted(file);
		const byId = new Map<string, SourceRecord>();
		for (const record of await store.readRecords(run, file)) {
			const id = recordIdentity(file, record);
			if (ids.has(id)) byId.set(id, { record, head: await recordHead(file, record) });
		}
		return { byId, total: ids.size };
	};
	const incomplete = (file: StageFile, saved: number, total: number) =>
		new CheckpointError([
			coded('rejudge_source_incomplete', { file: stageFilePath(run, file), saved, total })
		]);
	const stages: StageName[] = [];
	const records = new Map<StageFile, Map<string, SourceRecord>>();
	for (const [stage, rejudging] of Object.entries(REJUDGING) as [StageName, Rejudging][]) {
		const judged = await readFile(rejudging.judged);
		if (judged.byId.size === 0) continue;
		if (judged.byId.size < judged.total) {
			throw incomplete(rejudging.judged, judged.byId.size, judged.total);
		}
		for (const file of rejudging.reads.filter((f) => !records.has(f))) {
			const read = await readFile(file);
			if (read.byId.size < read.total) throw incomplete(file, read.byId.size, read.total);
			records.set(file, read.byId);
		}
		stages.push(stage);
	}
	if (stages.length === 0) {
		throw new CheckpointError([coded('rejudge_nothing_judged', { runId: run.runId })]);
	}
	return { run, manifest, stages, records };
}

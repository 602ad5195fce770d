/** Pieces every stage shares: history types, record identities, loading a checkpoint. */
import { keyDetailsText, renderHistory } from '../../dataset/render';
import type { Case, History } from '../../dataset/types';
import { UpstreamIncompleteError } from '../../errors';
import { coded } from '../../said';
import { stageFilePath } from '../../layout';
import type { HistoryType } from '../../records';
import type { StageFile } from '../../record-names';
import { identitySaid, recordIdentity } from '../../store/identity';
import { loadCheckpoint, type Checkpoint } from '../../store/resume';
import type { CallMeta, StageContext } from '../context';
import type { StageName } from '../types';

export const HISTORY_TYPES: readonly HistoryType[] = ['complete', 'underspecified'];

export function historyOf(kase: Case, type: HistoryType): History {
	return type === 'complete' ? kase.complete : kase.underspecified;
}

/** The record identity of a case (and history) within `file`, as the stores key it. */
export function idOf(file: StageFile, kase: Case, historyType?: HistoryType): string {
	return recordIdentity(file, { case_number: kase.case_number, history_type: historyType });
}

/** What one stage needs to run: the cases left, and how to run one. */
export interface PreparedStage {
	/** Cases with at least one record still to write, in dataset order. */
	pending: Case[];
	/** Cases whose every record of the stage is saved already. */
	resumed: number;
	/** Generates and saves the missing records of one case; writes nothing if it fails. */
	runCase(kase: Case): Promise<void>;
	/** Record identities per written file, in dataset order, for `finalizeStageFile`. */
	order: Partial<Record<StageFile, string[]>>;
	/**
	 * True for a pending case that must wait for its upstream stage's task in the same `runAll`
	 * (ljp-interaction for a case whose interaction gen has yet to save). @default never
	 */
	blocked?(kase: Case): boolean;
}

/**
 * Loads the checkpoint of `file`: the heads of saved records that still fit this run are kept;
 * anything else is a `CheckpointError`. `items` are the records the stage would write, in dataset
 * order; `hashOf` gives the `input_sha256` one must have, and is asked only for saved records.
 */
export async function loadFile<F extends StageFile, T>(
	ctx: StageContext,
	file: F,
	items: readonly T[],
	identityOf: (item: T) => string,
	hashOf: (item: T) => Promise<string>
): Promise<Checkpoint<F>> {
	const byIdentity = new Map(items.map((item) => [identityOf(item), item]));
	return loadCheckpoint(ctx.store, ctx.run, file, {
		identities: [...byIdentity.keys()],
		inputSha256: (identity) => hashOf(byIdentity.get(identity)!)
	});
}

/**
 * Refuses to start a stage whose upstream file lacks some selected cases (PROTOCOL.md §6): names the
 * file, how many are missing, the first one, and the command that makes them.
 */
export function requireComplete(
	ctx: StageContext,
	stage: StageName,
	file: StageFile,
	missing: readonly string[],
	total: number,
	command: string
): void {
	if (missing.length === 0) return;
	const params = {
		stage,
		file: stageFilePath(ctx.run, file),
		missing: missing.length,
		total,
		command
	};
	throw new UpstreamIncompleteError([
		coded('upstream_missing', params, { first: [identitySaid(missing[0])] })
	]);
}

/**
 * The simulated client's answer to the assistant's latest turn. It sees the hidden key
 * details (it is the only generating role that does), the conversation before the question,
 * and the question itself.
 */
export async function askUser(
	ctx: StageContext,
	kase: Case,
	before: History,
	question: string,
	meta?: CallMeta
): Promise<string> {
	const prompt = ctx.fill('user_standard', {
		key_details: keyDetailsText(kase.key_details),
		history: renderHistory(before),
		question
	});
	return (await ctx.call('user_standard', prompt, kase, meta)).response;
}

/**
 * Like `Promise.all`, but waits for every task before throwing the first error, so no call of a
 * failed case is still running when its stage reports the failure.
 */
export async function settleAll<T>(tasks: readonly Promise<T>[]): Promise<T[]> {
	const settled = await Promise.allSettled(tasks);
	const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
	if (failed) throw failed.reason;
	return settled.map((s) => (s as PromiseFulfilledResult<T>).value);
}

/** How each stage of `../protocol` is prepared (whose files it reads: `UPSTREAM` there). */
import type { Case } from '../dataset/types';
import type { StageContext } from './context';
import { prepareDcg } from './stages/dcg';
import { prepareGen, prepareLca } from './stages/gen';
import { prepareLjpDirect, prepareLjpGold, prepareLjpInteraction } from './stages/ljp';
import type { PreparedStage } from './stages/shared';
import type { StageName } from '../protocol';

/** Reads a stage's saved records and returns its plan: the cases left and how to run one. */
export const PREPARE: Record<
	StageName,
	(ctx: StageContext, cases: readonly Case[]) => Promise<PreparedStage>
> = {
	gen: prepareGen,
	lca: prepareLca,
	dcg: prepareDcg,
	'ljp-direct': prepareLjpDirect,
	'ljp-gold': prepareLjpGold,
	'ljp-interaction': prepareLjpInteraction
};

export { UPSTREAM } from '../protocol';

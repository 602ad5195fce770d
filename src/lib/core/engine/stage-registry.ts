/** The stages the engine knows, once: how each is prepared, and whose files it reads. */
import type { Case } from '../dataset/types';
import type { StageContext } from './context';
import { prepareDcg } from './stages/dcg';
import { prepareGen, prepareLca } from './stages/gen';
import { prepareLjpDirect, prepareLjpGold, prepareLjpInteraction } from './stages/ljp';
import type { PreparedStage } from './stages/shared';
import type { StageName } from './types';

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

/** The stage whose files a stage reads; dcg, ljp-direct and ljp-gold read none. */
export const UPSTREAM: Partial<Record<StageName, StageName>> = {
	lca: 'gen',
	'ljp-interaction': 'gen'
};

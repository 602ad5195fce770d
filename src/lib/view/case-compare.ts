/**
 * One case of two runs side by side (two models, or two repetitions of one): each response,
 * label, question and verdict of run A next to run B's, with what differs marked. Built from
 * the two runs' case views. Framework-free.
 */
import type { Verdict } from '$lib/core/dataset/types';
import type { DcgLabel, HistoryType, InteractionRecord, LcaLabel } from '$lib/core/records';
import { LJP_SETUPS, type LjpSetup } from '$lib/core/metrics/types';
import type { CaseView, FirstResponse } from './case-view';

/**
 * How two runs' values compare: the same, different, or held by one run only (or by neither,
 * `missing`).
 */
export type Match = 'same' | 'differs' | 'only-a' | 'only-b' | 'missing';

function match<T>(a: T | null | undefined, b: T | null | undefined): Match {
	const hasA = a !== null && a !== undefined;
	const hasB = b !== null && b !== undefined;
	if (hasA && hasB) return a === b ? 'same' : 'differs';
	return hasA ? 'only-a' : hasB ? 'only-b' : 'missing';
}

/** One side-by-side pair. */
export interface Pair<T> {
	a: T | null;
	b: T | null;
}

export interface ComparedResponse extends Pair<FirstResponse> {
	historyType: HistoryType;
	label: Match;
	text: Match;
}

export interface ComparedQuestion {
	round: 1 | 2;
	question: Pair<string> & { match: Match };
	label: Pair<DcgLabel> & { match: Match };
}

export interface ComparedClaim {
	claim: string;
	gold: Verdict | null;
	a: Record<LjpSetup, Verdict | null>;
	b: Record<LjpSetup, Verdict | null>;
	match: Record<LjpSetup, Match>;
}

/** A difference in an outcome (a label, a success, a stop, a verdict), for the summary. */
export type Difference =
	| { kind: 'lca'; historyType: HistoryType }
	| { kind: 'stop' }
	| { kind: 'dcg-label'; round: 1 | 2 }
	| { kind: 'dcg-success' }
	| { kind: 'verdict'; setup: LjpSetup; claim: number };

export interface ComparedCase {
	firstResponses: ComparedResponse[];
	interaction: Pair<InteractionRecord> & { stop: Match; final: Match };
	dcg: {
		questions: [ComparedQuestion, ComparedQuestion];
		reply: Pair<string> & { match: Match };
		success: Pair<boolean> & { match: Match };
	};
	ljp: {
		claims: ComparedClaim[];
		/** The runs list different claims for the case (not the same case, or not the same data). */
		claimsDiffer: boolean;
	};
	/** Outcomes both runs have and on which they differ, in page order. */
	differences: Difference[];
	/** Outcomes both runs have. */
	compared: number;
}

/** The two views of one case side by side. */
export function compareCase(a: CaseView, b: CaseView): ComparedCase {
	const differences: Difference[] = [];
	let compared = 0;
	const note = (m: Match, d: Difference) => {
		if (m === 'same' || m === 'differs') compared++;
		if (m === 'differs') differences.push(d);
		return m;
	};

	const firstResponses = (['complete', 'underspecified'] as const).map((t) => {
		const ra = a.firstResponses.find((r) => r.historyType === t) ?? null;
		const rb = b.firstResponses.find((r) => r.historyType === t) ?? null;
		return {
			historyType: t,
			a: ra,
			b: rb,
			label: note(match<LcaLabel>(ra?.label, rb?.label), { kind: 'lca', historyType: t }),
			text: match(ra?.record.response, rb?.record.response)
		};
	});

	const interaction = {
		a: a.interaction,
		b: b.interaction,
		stop: note(match(a.interaction?.stop_reason, b.interaction?.stop_reason), { kind: 'stop' }),
		final: match(a.interaction?.final_response, b.interaction?.final_response)
	};

	const questions = ([1, 2] as const).map((round) => {
		const qa = a.dcg.record?.rounds[round - 1].question ?? null;
		const qb = b.dcg.record?.rounds[round - 1].question ?? null;
		const la = a.dcg.labels?.[round - 1] ?? null;
		const lb = b.dcg.labels?.[round - 1] ?? null;
		return {
			round,
			question: { a: qa, b: qb, match: match(qa, qb) },
			label: { a: la, b: lb, match: note(match(la, lb), { kind: 'dcg-label', round }) }
		};
	}) as [ComparedQuestion, ComparedQuestion];
	const replyA = a.dcg.record?.rounds[0].user_reply ?? null;
	const replyB = b.dcg.record?.rounds[0].user_reply ?? null;
	const dcg = {
		questions,
		reply: { a: replyA, b: replyB, match: match(replyA, replyB) },
		success: {
			a: a.dcg.success,
			b: b.dcg.success,
			match: note(match(a.dcg.success, b.dcg.success), { kind: 'dcg-success' })
		}
	};

	const claimsDiffer =
		a.ljp.rows.length > 0 &&
		b.ljp.rows.length > 0 &&
		(a.ljp.rows.length !== b.ljp.rows.length ||
			a.ljp.rows.some((r, i) => r.claim !== b.ljp.rows[i].claim));
	const rows = a.ljp.rows.length ? a.ljp.rows : b.ljp.rows;
	const claims = claimsDiffer
		? []
		: rows.map((row, i) => {
				const ra = a.ljp.rows[i];
				const rb = b.ljp.rows[i];
				const pa = ra?.predicted ?? { direct: null, gold: null, interaction: null };
				const pb = rb?.predicted ?? { direct: null, gold: null, interaction: null };
				const m = Object.fromEntries(
					LJP_SETUPS.map((s) => [
						s,
						note(match(pa[s], pb[s]), { kind: 'verdict', setup: s, claim: i })
					])
				) as Record<LjpSetup, Match>;
				return { claim: row.claim, gold: ra?.gold ?? rb?.gold ?? null, a: pa, b: pb, match: m };
			});

	return {
		firstResponses,
		interaction,
		dcg,
		ljp: { claims, claimsDiffer },
		differences,
		compared
	};
}

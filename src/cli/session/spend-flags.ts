/**
 * `--prices FILE` and `--spend-cap AMOUNT` of `run`: the session's spending cap (PROTOCOL.md §8,
 * run plans). The cap and the spend so far are kept with the plan under the output root
 * (`plans/<plan-id>.json`), so the same command again continues the spend and keeps the cap;
 * a run past its cap stops before another task starts and exits `EXIT_CAPPED`.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { planId, type PlanSpec } from '../../lib/core/engine/plan';
import { UsageError } from '../../lib/core/errors';
import { moneyText } from '../../lib/core/leaderboard/cells';
import { parsePrices } from '../../lib/core/leaderboard/prices';
import type { SessionOptions, SessionSnapshot } from '../../lib/core/session';
import type { PlanSpendStore } from '../../lib/core/session/spend';
import { escapeControl } from '../../lib/core/text/escape-control';

export const SPEND_OPTIONS = {
	prices: { type: 'string' },
	'spend-cap': { type: 'string' }
} as const;

/** Exit code of a run (a plan) that its spending cap paused: finished cases are saved. */
export const EXIT_CAPPED = 4;

export const SPEND_HELP = `Spending cap:
  --prices FILE            prices per million tokens per model id (JSON, as for
                           "results --prices"): counts what the calls cost
  --spend-cap AMOUNT       stop starting cases once the spend passes AMOUNT (in the
                           prices' currency); the cap and the spend so far are kept with
                           the plan under the output root (plans/<plan-id>.json), so the
                           same command again continues the spend; a run past its cap
                           exits ${EXIT_CAPPED}; a higher --spend-cap goes on`;

/** Largest cap accepted, in the prices' currency. */
const MAX_CAP = 1e9;

export interface SpendFlags {
	prices?: string;
	'spend-cap'?: string;
}

/** The session's `spend` for these flags, or undefined when no prices are given. */
export async function spendOptions(
	flags: SpendFlags,
	spec: PlanSpec,
	store: PlanSpendStore,
	cwd: string
): Promise<SessionOptions['spend']> {
	const rawCap = flags['spend-cap'];
	let cap: number | undefined;
	if (rawCap !== undefined) {
		cap = Number(rawCap.trim());
		if (rawCap.trim() === '' || !Number.isFinite(cap) || cap < 0 || cap > MAX_CAP) {
			throw new UsageError(
				`--spend-cap: ${escapeControl(JSON.stringify(rawCap.slice(0, 40)))} is not an amount from 0 to ${MAX_CAP}`
			);
		}
	}
	if (flags.prices === undefined) {
		if (cap !== undefined) throw new UsageError('--spend-cap needs --prices FILE to count money');
		// A cap kept with the plan holds on a resume: without prices nothing could be counted
		// against it, and the plan would run to its end with the spend frozen (issue 33).
		const id = await planId(spec);
		const saved = await store.readPlanSpend(id);
		if (saved && saved.cap !== null) {
			const currency = escapeControl(saved.currency);
			throw new UsageError(
				`this plan has a spending cap kept with it (spent ${moneyText(saved.spent)} of the cap ` +
					`${moneyText(saved.cap)} ${currency}, plans/${id}.json under the output root); ` +
					'give --prices FILE to go on under it, with a higher --spend-cap to raise it'
			);
		}
		return undefined;
	}
	const full = resolve(cwd, flags.prices);
	let text: string;
	try {
		text = await readFile(full, 'utf8');
	} catch (e) {
		const detail = (e as NodeJS.ErrnoException).code ?? 'unreadable';
		throw new UsageError(`--prices ${escapeControl(full)}: cannot read (${escapeControl(detail)})`);
	}
	const prices = parsePrices(text, escapeControl(full));
	return { store, planId: await planId(spec), prices, cap };
}

/** `spent 0.8607 of the cap 0.8000 USD`. */
export function spendLine(s: SessionSnapshot): string | null {
	const spend = s.spend;
	if (!spend) return null;
	const currency = escapeControl(spend.currency);
	// The one number formatter: a figure that is not finite reads "—", never "Infinity".
	const cap = spend.cap === null ? '' : ` of the cap ${moneyText(spend.cap)}`;
	return `spent ${moneyText(spend.spent)}${cap} ${currency}`;
}

/** What a run stopped by its cap says, and how to go on. */
export function cappedText(s: SessionSnapshot): string {
	return (
		`Paused at the spending cap: ${spendLine(s)}. Finished cases are saved; ` +
		'run the same command with a higher --spend-cap to go on.\n'
	);
}

/**
 * Stops the session once its cap holds it paused (tasks under way have ended: nothing is cut);
 * returns the snapshot handler that does so.
 */
export function stopWhenCapped(
	stop: () => void,
	onSnapshot?: (s: SessionSnapshot) => void
): (s: SessionSnapshot) => void {
	return (s) => {
		onSnapshot?.(s);
		if (s.status === 'paused' && s.spend?.capped) stop();
	};
}

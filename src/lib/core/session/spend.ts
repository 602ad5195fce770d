/**
 * The spending cap of a session and its spend so far, kept with the plan (`PlanSpendStore`: a
 * file beside the runs for the CLI, IndexedDB for the page), so a reload, a resume or another
 * process sees the same cap and a spend that continues from where it was: the spend saved at the
 * last start plus what this start's answered calls cost at the session's prices, each counted as
 * it is answered (`meter`), so the cap is checked call by call. Batch runs add no spend (their
 * passes replay answers of earlier rounds; the provider bills the batches).
 */
import { costOf, type Prices, type TokenCount } from '../calls/cost';
import { forwarding } from '../forward';
import type { ModelClient } from '../model/types';
import type { Role } from '../record-names';

/** What is kept of a plan's money, as saved. */
export interface PlanSpend {
	/** The cap in the prices' currency; null for none. */
	cap: number | null;
	/** Money spent by the plan's calls so far (every start). */
	spent: number;
	currency: string;
	/** True while the cap holds the plan paused. */
	capped: boolean;
	/** ISO time of the last write. */
	updated_at: string;
}

/** Where a plan's spend is kept: beside its runs, under the plan's id. */
export interface PlanSpendStore {
	readPlanSpend(planId: string): Promise<PlanSpend | null>;
	writePlanSpend(planId: string, spend: PlanSpend): Promise<void>;
}

export function isPlanSpendStore(store: unknown): store is PlanSpendStore {
	const s = store as Partial<PlanSpendStore> | null;
	return typeof s?.readPlanSpend === 'function' && typeof s?.writePlanSpend === 'function';
}

/** Money bounds of a saved record: anything else is not a spend this workbench wrote. */
const MAX_AMOUNT = 1e9;

const amount = (v: unknown): v is number =>
	typeof v === 'number' && Number.isFinite(v) && v >= 0 && v <= MAX_AMOUNT;

/** A saved spend read back (hostile: the file or row may have been edited), or null. */
export function parsePlanSpend(value: unknown): PlanSpend | null {
	if (typeof value !== 'object' || value === null) return null;
	const v = value as Record<string, unknown>;
	if (!(v.cap === null || amount(v.cap)) || !amount(v.spent)) return null;
	if (typeof v.currency !== 'string' || v.currency.length < 1 || v.currency.length > 12)
		return null;
	if (typeof v.capped !== 'boolean' || typeof v.updated_at !== 'string') return null;
	return {
		cap: v.cap,
		spent: v.spent,
		currency: v.currency,
		capped: v.capped,
		updated_at: v.updated_at.slice(0, 40)
	};
}

/** The spend as a snapshot shows it. */
export interface SpendView {
	/** Money so far: the saved spend of earlier starts plus this start's calls. */
	spent: number;
	cap: number | null;
	currency: string;
	/** The cap paused the session (it passed it). */
	capped: boolean;
	/** Tokens of this start's calls. */
	tokens: TokenCount;
	/** Models that used tokens and have no price: `spent` leaves them out. */
	unpriced: string[];
}

export interface SpendOptions {
	/** Where the cap and spend are kept, with the plan's id. */
	store: PlanSpendStore;
	planId: string;
	prices: Prices;
	/** The cap to hold; undefined keeps the saved one (none when nothing is saved). */
	cap?: number | null;
}

/** The session's money: the saved spend, this start's calls, the cap, and when it passed. */
export class SpendMeter {
	readonly #options: SpendOptions;
	readonly #onCapped: () => void;
	#base = 0;
	#live = 0;
	readonly #tokens: TokenCount = { prompt: 0, completion: 0 };
	readonly #unpriced = new Set<string>();
	#cap: number | null = null;
	#capped = false;
	#writes: Promise<void> = Promise.resolve();
	#lastWrite = 0;

	/** `onCapped`: told once the spend passes the cap. */
	constructor(options: SpendOptions, onCapped: () => void) {
		this.#options = options;
		this.#onCapped = onCapped;
	}

	/** `client`, with every answered call's tokens priced at the model of its role. */
	meter(client: ModelClient, models: Record<Role, string>): ModelClient {
		return forwarding(client, {
			complete: async (request) => {
				const result = await client.complete(request);
				if (result.usage) this.#add(models[request.role], result.usage);
				return result;
			}
		});
	}

	#add(model: string, usage: { promptTokens: number; completionTokens: number }): void {
		const tokens = { prompt: usage.promptTokens, completion: usage.completionTokens };
		this.#tokens.prompt += tokens.prompt;
		this.#tokens.completion += tokens.completion;
		const { models } = this.#options.prices;
		if (Object.hasOwn(models, model)) this.#live += costOf(tokens, models[model]);
		else if (tokens.prompt + tokens.completion > 0) this.#unpriced.add(model);
		if (!this.#capped && this.#passed(this.spent)) {
			this.#capped = true;
			void this.save();
			this.#onCapped();
			// Once past the cap, every call still under way as it pauses is saved at once: a reload
			// finds what was spent.
		} else if (this.#capped || Date.now() - this.#lastWrite >= 2000) void this.save();
	}

	/** Money so far: the saved spend plus this start's calls. */
	get spent(): number {
		return this.#base + this.#live;
	}

	/** Reads what is saved; returns whether the cap holds the session paused from the start. */
	async open(): Promise<boolean> {
		const saved = await this.#options.store.readPlanSpend(this.#options.planId);
		this.#base = saved?.spent ?? 0;
		this.#cap = this.#options.cap !== undefined ? this.#options.cap : (saved?.cap ?? null);
		this.#capped = this.#passed(this.#base);
		await this.save();
		return this.#capped;
	}

	get capped(): boolean {
		return this.#capped;
	}

	get cap(): number | null {
		return this.#cap;
	}

	/** A new cap: returns whether the session is still held by it. */
	setCap(cap: number | null): boolean {
		this.#cap = cap;
		this.#capped = this.#passed(this.spent);
		void this.save();
		return this.#capped;
	}

	/** The spend as a snapshot shows it. */
	view(): SpendView {
		return {
			spent: this.spent,
			cap: this.#cap,
			currency: this.#options.prices.currency ?? 'USD',
			capped: this.#capped,
			tokens: { ...this.#tokens },
			unpriced: [...this.#unpriced].sort()
		};
	}

	/** Writes the cap and the spend so far; writes go one after another, the last one wins. */
	save(): Promise<void> {
		this.#lastWrite = Date.now();
		const spend: PlanSpend = {
			cap: this.#cap,
			spent: this.spent,
			currency: this.#options.prices.currency ?? 'USD',
			capped: this.#capped,
			updated_at: new Date().toISOString()
		};
		this.#writes = this.#writes
			.catch(() => {})
			.then(() => this.#options.store.writePlanSpend(this.#options.planId, spend));
		return this.#writes;
	}

	#passed(spent: number): boolean {
		return this.#cap !== null && spent > this.#cap;
	}
}

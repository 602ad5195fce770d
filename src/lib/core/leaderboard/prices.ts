/**
 * Prices per million input (prompt) and output (completion) tokens per model id: the CLI's
 * `--prices FILE` and the Results page's price entry share this one schema.
 *
 * ```json
 * { "currency": "USD", "models": { "gpt-4o": { "input": 2.5, "output": 10 } } }
 * ```
 */
import { z } from 'zod';
import { UsageError } from '../errors';
import { coded } from '../said';

const MAX_MODELS = 1000;

/**
 * The highest price per million tokens accepted: far above any model's (tens of dollars today),
 * low enough that no token count of a run can make a cost overflow to Infinity.
 */
export const MAX_PRICE = 10_000;

/** A price per million tokens, 0 to {@link MAX_PRICE}; a refusal quotes the value given. */
const amount = z
	.number()
	.finite()
	.nonnegative()
	.max(MAX_PRICE, {
		error: (issue) =>
			`${String(issue.input)} is above ${MAX_PRICE.toLocaleString('en-US')} per million tokens, the most a price may be`
	});

/** One model's price per million tokens. */
export const Price = z
	.object({
		/** Per million prompt tokens. */
		input: amount,
		/** Per million completion tokens (reasoning tokens are billed within them). */
		output: amount
	})
	.strict();
export type Price = z.infer<typeof Price>;

export const Prices = z
	.object({
		/** A label printed beside costs. @default 'USD' */
		currency: z.string().min(1).max(12).optional(),
		models: z
			.record(z.string().min(1).max(300), Price)
			.refine((m) => Object.keys(m).length <= MAX_MODELS, `at most ${MAX_MODELS} models`)
	})
	.strict();
export type Prices = z.infer<typeof Prices>;

/** The prices in `text` (JSON); a UsageError naming `place` and the field of any problem. */
export function parsePrices(text: string, place: string): Prices {
	let value: unknown;
	try {
		value = JSON.parse(text);
	} catch (e) {
		throw new UsageError([coded('lb_prices_invalid', { place, detail: (e as Error).message })]);
	}
	const parsed = Prices.safeParse(value);
	if (parsed.success) return parsed.data;
	const issue = parsed.error.issues[0];
	const field = issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : JSON.stringify(p)));
	const at = field.length ? `${place}, field ${field.join('.')}` : place;
	throw new UsageError([coded('lb_prices_invalid', { place: at, detail: issue.message })]);
}

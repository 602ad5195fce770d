import { z } from 'zod';
import { VERDICTS } from './names';

export { UNCLASSIFIED, VERDICTS } from './names';

export const Verdict = z.enum(VERDICTS);
export type Verdict = z.infer<typeof Verdict>;

/** One consultation message as stored in the dataset and in every saved record. */
export const Message = z.object({
	role: z.enum(['user', 'assistant']),
	content: z.string()
});
export type Message = z.infer<typeof Message>;

export const History = z.array(Message);
export type History = z.infer<typeof History>;

/** `key_details` exactly as given in the file: a string, a list of strings, or an object. */
export const KeyDetails = z.union([
	z.string(),
	z.array(z.string()),
	z.record(z.string(), z.unknown())
]);
export type KeyDetails = z.infer<typeof KeyDetails>;

/** One claim of `result_dict`, in file order. */
export const Claim = z.object({ claim: z.string(), verdict: Verdict });
export type Claim = z.infer<typeof Claim>;

/**
 * A validated case, normalised for the engine. Built only by the dataset loader, which
 * checks every PROTOCOL.md §1 rule before producing it.
 */
export const Case = z.object({
	/** Zero-based position in the file. */
	index: z.number().int().nonnegative(),
	/** `case_number` as a string (the file may hold an integer; it is compared as a string). */
	case_number: z.string(),
	/**
	 * `case_number` as the file holds it (a string or an integer): what records and the manifest
	 * write (PROTOCOL.md §5). `case_number` above is its string form, used for every comparison.
	 */
	case_number_value: z.union([z.string(), z.number().int()]),
	cause_of_action: z.string(),
	plaintiff_type: z.string(),
	/** Every focal point, in order (a single string becomes a one-element list). */
	focal_points: z.array(z.string()),
	key_details: KeyDetails,
	/** `result_dict` claims in file order. */
	claims: z.array(Claim),
	complete: History,
	underspecified: History
});
export type Case = z.infer<typeof Case>;

/** Which fields of the file hold the two histories. Recorded in the manifest. */
export const HistoryFields = z.object({ complete: z.string(), underspecified: z.string() });
export type HistoryFields = z.infer<typeof HistoryFields>;

/** cause_of_action → class. */
export const CategoryMap = z.record(z.string(), z.string());
export type CategoryMap = z.infer<typeof CategoryMap>;

/**
 * The problems found in a bundle, collected so that every one is reported at once, and the
 * `BundleError` listing them (the first few dozen, then a count of the rest).
 */
import { saidOf, UsageError } from '../core/errors';
import { coded, type CoreText } from '../core/said';
import { english } from '../core/voice';
import { decodeLayoutText } from '../core/text';

/** Problems listed before the rest are summarised; a broken bundle should not flood the page. */
const MAX_LISTED = 40;

/** A bundle that cannot be imported; `problems` holds every reason, each naming its file. */
export class BundleError extends UsageError {
	override name = 'BundleError';
	/**
	 * @param problems the problems listed (at most a few dozen, the rest summarised in the last)
	 * @param total how many problems were found in all, when more than listed
	 */
	constructor(
		readonly problems: string[],
		bundleName: string,
		readonly total: number = problems.length,
		/** Each problem as a code, or null where it has none (shown in English then). */
		readonly problemsSaid: (CoreText | null)[] = problems.map(() => null)
	) {
		super(
			`${bundleName} cannot be imported (${total} problem${total === 1 ? '' : 's'}):\n` +
				problems.map((p) => `- ${p}`).join('\n')
		);
	}
}

/** The problems found, each with its code when it has one. */
export class Problems {
	/** Each problem: its code, or the English of an error without one. */
	readonly #all: (CoreText | { text: string; said: CoreText | null })[] = [];
	get length(): number {
		return this.#all.length;
	}
	/** Problems holding `said` alone. */
	static one(said: CoreText): Problems {
		const problems = new Problems();
		problems.push(said);
		return problems;
	}
	/** A problem as a code; its English, the catalogue's, is made only if it is listed. */
	push(said: CoreText): void {
		this.#all.push(said);
	}
	/** The message of a reader's error, with its code when it has exactly one. */
	pushError(e: unknown, text = (e as Error).message): void {
		const said = saidOf(e);
		this.#all.push({ text, said: said?.length === 1 ? said[0] : null });
	}
	/** The error listing them: at most MAX_LISTED, then one line for the rest. */
	error(name: string): BundleError {
		const n = this.#all.length;
		const listed = this.#all.slice(0, MAX_LISTED);
		if (n > MAX_LISTED) listed.push(coded('bundle_more', { count: n - MAX_LISTED }));
		return new BundleError(
			listed.map((p) => ('code' in p ? english(p) : p.text)),
			name,
			n,
			listed.map((p) => ('code' in p ? p : p.said))
		);
	}
}

/** A file's bytes as text, or null with the problem noted. */
export function decode(bytes: Uint8Array, label: string, problems: Problems): string | null {
	try {
		return decodeLayoutText(bytes, label);
	} catch (e) {
		problems.pushError(e, `${(e as Error).message}.`);
		return null;
	}
}

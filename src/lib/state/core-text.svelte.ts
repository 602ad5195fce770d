/**
 * The core's coded texts in the interface language, with their ~140 messages (`core_*`,
 * `$lib/view/core-text`) loaded only when they are needed: in English the page shows the core's
 * own sentence and never loads them. The module is fetched at start when the interface is in
 * Chinese and on a switch to it (`locale.svelte.ts`); until it is there (a few milliseconds on a
 * first visit), a text shows its English sentence, and every text on screen turns Chinese once
 * it has loaded, because the loaded module is reactive state.
 */
import type { DatasetProblem } from '$lib/core/dataset/problems';
import type { CoreText } from '$lib/core/said';
import { escapeControl } from '$lib/core/text/escape-control';
import { baseLocale, getLocale } from '$lib/paraglide/runtime';

type CoreTextModule = typeof import('$lib/view/core-text');

class CoreTexts {
	/** The module, once loaded. */
	module = $state.raw<CoreTextModule | null>(null);
	#loading: Promise<void> | null = null;

	/** Starts loading the module (once); resolves when it is there. */
	load(): Promise<void> {
		this.#loading ??= import('$lib/view/core-text').then(
			(loaded) => {
				this.module = loaded;
			},
			(error: unknown) => {
				// Offline after an update, say: the English sentences stay; a later switch retries.
				this.#loading = null;
				console.warn('the core texts in the interface language did not load', error);
			}
		);
		return this.#loading;
	}

	/** The module when the interface is not in English and it has loaded, else null. */
	get sayer(): CoreTextModule | null {
		return getLocale() === baseLocale ? null : this.module;
	}
}

export const coreTexts = new CoreTexts();

/** The core's text in the interface language when it has a code, else (or until loaded) its English. */
export function coreText(
	english: string,
	said: CoreText | readonly CoreText[] | null | undefined
): string {
	return coreTexts.sayer?.coreText(english, said) ?? english;
}

/** A problem's field in the interface language: the validator's labels translated, names as written. */
export function problemField(field: string): string {
	return coreTexts.sayer?.problemField(field) ?? escapeControl(field);
}

/** The problem alone (no place), in the interface language. */
export function problemMessage(p: DatasetProblem): string {
	return coreTexts.sayer?.problemMessage(p) ?? p.message;
}

/** One full line, place and problem, in the interface language. */
export function problemLine(p: DatasetProblem): string {
	return coreTexts.sayer?.problemLine(p) ?? p.text;
}

/**
 * The language of the Results page's exports (copies, images, the HTML report): the
 * interface's, or one chosen for a paper, remembered in this browser.
 */
import type { Locale } from '$lib/paraglide/runtime';

/** The language of the page's exports: the interface's, or one chosen for a paper. */
export type ExportLanguage = 'ui' | Locale;

/** Where the export language is remembered in this browser. */
export const EXPORT_LANGUAGE_KEY = 'lexpilot-export-language';

/** The export language remembered here, or the interface's. */
export function savedExportLanguage(): ExportLanguage {
	try {
		const saved = globalThis.localStorage?.getItem(EXPORT_LANGUAGE_KEY);
		return saved === 'en' || saved === 'zh-CN' ? saved : 'ui';
	} catch {
		return 'ui';
	}
}

/** Remembers the export language (where storage refuses, the choice holds for this visit). */
export function rememberExportLanguage(language: ExportLanguage): void {
	try {
		localStorage.setItem(EXPORT_LANGUAGE_KEY, language);
	} catch {
		// Not remembered; the choice still holds for this visit.
	}
}

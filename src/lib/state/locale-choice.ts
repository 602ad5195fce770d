/** The two interface languages. */
export type InterfaceLocale = 'en' | 'zh-CN';

/**
 * The interface language for the browser's languages (navigator.languages, most preferred
 * first): the first that is Chinese (any `zh` tag, simplified or not, as the UI has one Chinese)
 * or English wins; English when neither is listed.
 */
export function localeFor(languages: readonly string[]): InterfaceLocale {
	for (const tag of languages) {
		const lower = tag.toLowerCase();
		if (lower === 'zh' || lower.startsWith('zh-')) return 'zh-CN';
		if (lower === 'en' || lower.startsWith('en-')) return 'en';
	}
	return 'en';
}

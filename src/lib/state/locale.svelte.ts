/**
 * The interface language: English or Simplified Chinese, chosen from the browser's languages on
 * the first visit (any `zh-*` means Chinese), switchable in the header, remembered in
 * localStorage. Message functions (`$lib/paraglide/messages`, compiled by Paraglide JS from
 * messages/*.json) read the locale through `getLocale`, which is pointed at this state, so every
 * string on screen follows a switch at once, without a reload (a run in progress goes on).
 * Dataset content, prompts and cause-class names are data and never translated.
 */
import { baseLocale, locales, overwriteGetLocale, type Locale } from '$lib/paraglide/runtime';
import { coreTexts } from './core-text.svelte';
import { localeFor } from './locale-choice';

/** Where the choice is remembered. */
export const LOCALE_KEY = 'lexpilot-locale';

function isLocale(value: unknown): value is Locale {
	return typeof value === 'string' && (locales as readonly string[]).includes(value);
}

function initialLocale(): Locale {
	if (typeof window === 'undefined') return 'en';
	try {
		const saved = localStorage.getItem(LOCALE_KEY);
		if (isLocale(saved)) return saved;
	} catch {
		// Storage refused (private mode): fall back to the browser's languages.
	}
	return localeFor(navigator.languages ?? [navigator.language]);
}

class LocaleState {
	current = $state<Locale>(initialLocale());

	/** Switches the interface language and remembers it. */
	set(locale: Locale): void {
		needCoreTexts(locale);
		this.current = locale;
		document.documentElement.lang = locale;
		try {
			localStorage.setItem(LOCALE_KEY, locale);
		} catch {
			// Not remembered; the switch still holds for this visit.
		}
	}
}

/** Starts loading the core's texts in `locale` if it is not English (English needs none). */
function needCoreTexts(locale: Locale): void {
	if (locale !== baseLocale && typeof window !== 'undefined') void coreTexts.load();
}

export const localeState = new LocaleState();
overwriteGetLocale(() => localeState.current);
needCoreTexts(localeState.current);

/**
 * The browser's `localStorage` or `sessionStorage`, or null where there is none or the browser
 * refuses it (some private modes throw on access).
 */
export function webStorage(name: 'localStorage' | 'sessionStorage'): Storage | null {
	try {
		return globalThis[name] ?? null;
	} catch {
		return null;
	}
}

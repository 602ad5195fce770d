import adapter from '@sveltejs/adapter-static';
import { vitePreprocess } from '@sveltejs/vite-plugin-svelte';

/**
 * Pages use relative paths, so one build/ works under any sub-path. Only the SPA fallback
 * (404.html, served for URLs that match no file) has to name its assets from the site root;
 * a host that serves the site under a sub-path builds with BASE_PATH=/that/path so that unknown
 * URLs show the 404 page there too (the Pages workflow sets it).
 */
/** @type {'' | `/${string}`} */
const base = /** @type {any} */ (process.env.BASE_PATH ?? '');
if (base !== '' && !/^\/[A-Za-z0-9._~\-/]*[^/]$/.test(base)) {
	throw new Error(
		`BASE_PATH must start with "/" and not end with one, e.g. /lexpilot (got "${base}")`
	);
}

/** @type {import('@sveltejs/kit').Config} */
const config = {
	preprocess: vitePreprocess(),
	kit: {
		// A fully static site: every page prerendered, with index.html as the SPA fallback,
		// so `build/` can be served by any static host (or opened from `npm start`).
		adapter: adapter({ pages: 'build', assets: 'build', fallback: '404.html', strict: true }),
		// src/service-worker.ts caches the app shell for offline use; the page registers it itself
		// (state/app-update.svelte.ts) so that a new deploy waits for the user's reload.
		serviceWorker: { register: false },
		paths: { base, relative: true },
		csp: {
			mode: 'hash',
			directives: {
				'default-src': ['self'],
				'script-src': ['self'],
				'style-src': ['self', 'unsafe-inline'],
				'img-src': ['self', 'data:', 'blob:'],
				'font-src': ['self'],
				// Model endpoints are the user's choice, so any https/http origin may be called.
				'connect-src': ['self', 'https:', 'http:'],
				'worker-src': ['self', 'blob:'],
				'object-src': ['none'],
				'base-uri': ['self'],
				'form-action': ['self']
			}
		}
	}
};

export default config;

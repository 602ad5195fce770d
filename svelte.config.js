import adapter from '@sveltejs/adapter-static';
import { vitePreprocess } from '@sveltejs/vite-plugin-svelte';

/** @type {import('@sveltejs/kit').Config} */
const config = {
	preprocess: vitePreprocess(),
	kit: {
		// A fully static site: every page prerendered, with index.html as the SPA fallback,
		// so `build/` can be served by any static host (or opened from `npm start`).
		adapter: adapter({ pages: 'build', assets: 'build', fallback: '404.html', strict: true }),
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

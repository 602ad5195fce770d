/**
 * What the service worker caches and which cached file answers a request: a pure function of
 * the build's file lists, so it is unit-tested without a service worker.
 */

/** Inputs of {@link shellPlan}: the lists of `$service-worker` and the worker's scope URL. */
export interface ShellInputs {
	/** Built JS/CSS (`$service-worker` build). */
	build: readonly string[];
	/** Files of static/ (`$service-worker` files). */
	files: readonly string[];
	/** Prerendered page paths (`$service-worker` prerendered). */
	prerendered: readonly string[];
	/** The registration's scope, e.g. `https://host/tools/lexpilot/`. */
	scope: string;
}

export interface ShellPlan {
	/** Every URL to put in the cache at install. */
	assets: string[];
	/**
	 * The cached URL that answers a request, or null when the request is not the shell's (other
	 * origins, non-GET, anything not in the build): those go to the network.
	 */
	cacheKey(method: string, url: string, navigate: boolean): string | null;
}

/** The SPA fallback that adapter-static writes: it boots the app on any route. */
const FALLBACK = '404.html';

export function shellPlan(inputs: ShellInputs): ShellPlan {
	const scope = new URL(inputs.scope);
	const abs = (path: string) => new URL(path, scope).href;
	const pages = new Map<string, string>();
	for (const path of inputs.prerendered) {
		const url = new URL(path, scope);
		pages.set(url.pathname.replace(/\/$/, '') || '/', url.href);
	}
	const fallback = abs(FALLBACK);
	const assets = [...new Set([...inputs.build, ...inputs.files].map(abs)), ...pages.values()];
	if (!assets.includes(fallback)) assets.push(fallback);
	const known = new Set(assets);
	const root = scope.pathname.replace(/\/$/, '');
	const pageOf = (pathname: string) => pages.get(pathname.replace(/\/$/, '') || '/');

	return {
		assets,
		cacheKey(method, url, navigate) {
			if (method !== 'GET') return null;
			const u = new URL(url);
			if (u.origin !== scope.origin || !(u.pathname === root || u.pathname.startsWith(`${root}/`)))
				return null;
			const bare = `${u.origin}${u.pathname}`;
			if (!navigate) return known.has(bare) ? bare : null;
			return pageOf(u.pathname) ?? fallback;
		}
	};
}

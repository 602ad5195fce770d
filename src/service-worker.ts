/// <reference types="@sveltejs/kit" />
/// <reference no-default-lib="true"/>
/// <reference lib="esnext" />
/// <reference lib="webworker" />
/**
 * The offline app shell: after the first visit, the built assets, the files of static/ and the
 * prerendered page shells are served from a cache named for this build, so the workbench opens
 * without the network. Nothing else is cached: model calls (any other origin, any POST) and
 * every other request go to the network untouched.
 *
 * A new deploy installs beside the old one and waits: the page shows a "new version — reload"
 * notice (never during a run) and sends `skip-waiting` only when the user asks, so a running
 * page never has its assets swapped underneath it.
 */
import { build, files, prerendered, version } from '$service-worker';
import { shellPlan } from '$lib/view/offline-shell';

const sw = self as unknown as ServiceWorkerGlobalScope;
const CACHE = `lexpilot-shell-${version}`;
const plan = shellPlan({ build, files, prerendered, scope: sw.registration.scope });

sw.addEventListener('install', (event) => {
	event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(plan.assets)));
});

sw.addEventListener('activate', (event) => {
	event.waitUntil(
		caches
			.keys()
			.then((keys) =>
				Promise.all(
					keys
						.filter((k) => k.startsWith('lexpilot-shell-') && k !== CACHE)
						.map((k) => caches.delete(k))
				)
			)
	);
});

sw.addEventListener('message', (event) => {
	if (event.data === 'skip-waiting') void sw.skipWaiting();
});

sw.addEventListener('fetch', (event) => {
	const { request } = event;
	const key = plan.cacheKey(request.method, request.url, request.mode === 'navigate');
	if (key === null) return; // not ours: the network, as if there were no service worker
	event.respondWith(
		caches.open(CACHE).then(async (cache) => (await cache.match(key)) ?? fetch(request))
	);
});

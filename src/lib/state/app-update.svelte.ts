/**
 * The offline shell's service worker, seen from the page: registers it (relative to the page, so
 * the site works under any sub-path), and tells when a new deploy is installed and waiting. The
 * notice is held back while a run is active; reloading asks the waiting worker to take over,
 * then reloads once it has.
 */
import { asset } from '$app/paths';

class AppUpdate {
	// Who may hold the notice back (the run state registers itself), kept as a callback so
	// that the layout does not load the engine just to ask.
	#busy = $state.raw<() => boolean>(() => false);
	/** A new version is installed and waiting for a reload. */
	waiting = $state(false);
	/** The service worker controls this page (the shell is cached for offline use). */
	offlineReady = $state(false);
	/** Show the notice: a new version waits and no run would be cut off by a reload. */
	showNotice = $derived(this.waiting && !this.#busy());

	#registration: ServiceWorkerRegistration | null = null;
	#reloading = false;

	/** Registers the worker; safe to call once per page load. */
	async start(): Promise<void> {
		if (!('serviceWorker' in navigator)) return;
		const container = navigator.serviceWorker;
		this.offlineReady = container.controller !== null;
		container.addEventListener('controllerchange', () => {
			this.offlineReady = true;
			if (this.#reloading) location.reload();
		});
		try {
			// Beside `_app/`, wherever the site is served: asset() resolves the runtime base path.
			const registration = await container.register(asset('/service-worker.js'));
			this.#registration = registration;
			const track = (worker: ServiceWorker | null) => {
				if (!worker) return;
				const check = () => {
					// A worker installed while another controls the page is a new deploy.
					if (worker.state === 'installed' && container.controller) this.waiting = true;
				};
				check();
				worker.addEventListener('statechange', check);
			};
			track(registration.waiting);
			track(registration.installing);
			registration.addEventListener('updatefound', () => track(registration.installing));
		} catch {
			// No service worker (a private window, a host that does not serve the file): the app
			// still works online, it just is not cached for offline use.
		}
	}

	/** Holds the notice back while `busy()` is true (a run is active). */
	holdWhile(busy: () => boolean): void {
		this.#busy = busy;
	}

	/** Lets the waiting version take over, then reloads (the page calls this on a click). */
	reload(): void {
		const waiting = this.#registration?.waiting;
		if (!waiting) {
			location.reload();
			return;
		}
		this.#reloading = true;
		waiting.postMessage('skip-waiting');
	}
}

export const appUpdate = new AppUpdate();

/**
 * End-to-end harness: serves build/ with scripts/serve.js on a free port and drives Debian's
 * Chromium through playwright-core. A missing browser or build fails loudly; nothing is
 * skipped. Every console error, page error, failed request and CSP violation is collected,
 * and `assertClean()` fails the test on any of them.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import {
	chromium,
	type BrowserContext,
	type Locator,
	type Page,
	type Request
} from 'playwright-core';
import { serve } from '../../scripts/serve.js';

const ROOT = resolve(import.meta.dirname, '../..');
/** Where screenshots go (gitignored). */
/**
 * Chromium's flags for these tests: headless as root, and none of the background connections
 * this machine's closed network refuses.
 */
export const CHROMIUM_FLAGS = [
	'--headless',
	'--no-sandbox',
	'--disable-gpu',
	'--disable-quic',
	'--no-first-run',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync'
] as const;

export const SCREENSHOT_DIR = join(ROOT, 'test-results', 'screenshots');

/** Options of {@link startBrowser}. */
export interface BrowserOptions {
	/** Serve the site under this sub-path, e.g. '/tools/lexpilot'. @default '' */
	base?: string;
	/** Viewport size. @default { width: 1360, height: 900 } */
	viewport?: { width: number; height: number };
	/** The folder to serve instead of build/ (a copy a test may change). @default build/ */
	dir?: string;
	/** The browser's language (navigator.language, Accept-Language). @default Chromium's, en-US */
	locale?: string;
}

export interface E2E {
	/** Site root URL, including the base path, without a trailing slash. */
	url: string;
	context: BrowserContext;
	page: Page;
	/** Everything that went wrong in the browser so far, one readable line each. */
	problems: string[];
	/** Fails when the browser reported any console error, page error or CSP violation. */
	assertClean(): void;
	/**
	 * Saves a screenshot to test-results/screenshots/<name>.png: the whole page by default,
	 * or one element.
	 */
	screenshot(name: string, target?: Page | Locator): Promise<string>;
	/** Stops the site's server, as if the network were gone (close() then skips it). */
	stopServer(): Promise<void>;
	close(): Promise<void>;
}

/** The Chromium executable, or an error that says how to install it. */
export function chromiumPath(): string {
	const path = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
	if (!existsSync(path)) {
		throw new Error(
			`Chromium not found at ${path}: apt-get install -y chromium (or set CHROMIUM_PATH to a Chromium binary)`
		);
	}
	return path;
}

/** A headless Chromium on a fresh profile, so IndexedDB and storage start empty. */
export interface ChromiumProfile {
	context: BrowserContext;
	/** Closes the browser and removes its profile. */
	close(): Promise<void>;
}

/** Options of {@link launchChromium}. */
export interface ChromiumOptions {
	/** Start of the temporary profile folder's name. @default 'lexpilot-e2e-' */
	profilePrefix?: string;
	/** Viewport size. @default Playwright's, 1280 × 720 */
	viewport?: { width: number; height: number };
	/** The browser's language. @default Chromium's, en-US */
	locale?: string;
}

/**
 * Debian's Chromium, as the end-to-end tests and the browser benches run it: headless, no GPU,
 * no QUIC, and none of the background traffic (updates, sync) that would reach the network.
 */
export async function launchChromium(options: ChromiumOptions = {}): Promise<ChromiumProfile> {
	const executablePath = chromiumPath();
	const userDataDir = await mkdtemp(join(tmpdir(), options.profilePrefix ?? 'lexpilot-e2e-'));
	try {
		const context = await chromium.launchPersistentContext(userDataDir, {
			executablePath,
			headless: true,
			...(options.viewport && { viewport: options.viewport }),
			...(options.locale && { locale: options.locale }),
			args: [...CHROMIUM_FLAGS]
		});
		return {
			context,
			async close() {
				await context.close();
				await rm(userDataDir, { recursive: true, force: true });
			}
		};
	} catch (e) {
		await rm(userDataDir, { recursive: true, force: true });
		throw e;
	}
}

function buildDir(): string {
	const dir = join(ROOT, 'build');
	if (!existsSync(join(dir, 'index.html'))) {
		throw new Error(`${dir}/index.html is missing: run "npm run build" before the e2e tests`);
	}
	return dir;
}

/** Starts the static server and a fresh Chromium profile. */
export async function startBrowser(options: BrowserOptions = {}): Promise<E2E> {
	const server = await serve({ dir: options.dir ?? buildDir(), port: 0, base: options.base ?? '' });
	let serving = true;
	const stopServer = async () => {
		if (serving) await server.close();
		serving = false;
	};
	let browser: ChromiumProfile;
	try {
		browser = await launchChromium({
			viewport: options.viewport ?? { width: 1360, height: 900 },
			locale: options.locale
		});
	} catch (e) {
		await server.close();
		throw e;
	}
	const { context } = browser;

	const problems: string[] = [];
	// Init scripts run through the DevTools protocol, outside the page's CSP, so this
	// listener sees violations even of script-src.
	await context.addInitScript(() => {
		document.addEventListener('securitypolicyviolation', (e) => {
			console.error(
				`CSP violation: ${e.violatedDirective} blocked ${e.blockedURI || '(inline)'} at ${e.sourceFile}:${e.lineNumber}`
			);
		});
	});
	const watch = (page: Page) => {
		page.on('console', (msg) => {
			if (msg.type() === 'error') problems.push(`console error on ${page.url()}: ${msg.text()}`);
		});
		page.on('pageerror', (err) => problems.push(`page error on ${page.url()}: ${err.message}`));
		// A request still out when the page is left (a reload, another page) is cancelled by the
		// browser (ERR_ABORTED): not a failure of the app. Each request is stamped with the number of
		// top-level navigations begun before it; a navigation request begins one.
		let navigations = 0;
		const sentAfter = new WeakMap<Request, number>();
		page.on('request', (req) => {
			if (req.isNavigationRequest() && req.frame() === page.mainFrame()) navigations++;
			else sentAfter.set(req, navigations);
		});
		page.on('requestfailed', (req) => {
			const why = req.failure()?.errorText ?? 'unknown';
			const left = (sentAfter.get(req) ?? navigations) < navigations;
			if (why === 'net::ERR_ABORTED' && left) return;
			// A module the page was still loading on demand when the test moved on to another page:
			// the browser cancels it (ERR_ABORTED); the next page loads it again if it needs it.
			if (why === 'net::ERR_ABORTED' && new URL(req.url()).pathname.includes('/_app/immutable/'))
				return;
			problems.push(`request failed: ${req.url()} (${why})`);
		});
		page.on('response', (res) => {
			if (res.status() >= 400) problems.push(`HTTP ${res.status()} for ${res.url()}`);
		});
	};
	context.pages().forEach(watch);
	context.on('page', watch);
	const page = context.pages()[0] ?? (await context.newPage());

	return {
		url: server.url,
		context,
		page,
		problems,
		assertClean() {
			if (problems.length > 0) {
				throw new Error(
					`The browser reported ${problems.length} problem(s):\n${problems.join('\n')}`
				);
			}
		},
		async screenshot(name, target = page) {
			await mkdir(SCREENSHOT_DIR, { recursive: true });
			const path = join(SCREENSHOT_DIR, `${name}.png`);
			if ('goto' in target) await target.screenshot({ path, fullPage: true });
			else await target.screenshot({ path });
			return path;
		},
		stopServer,
		async close() {
			await browser.close();
			await stopServer();
		}
	};
}

/**
 * A Chromium whose tabs can really be hidden. Playwright keeps every page it opens "visible"
 * (it turns on focus emulation, and its launch flags switch off background throttling), so a
 * hidden tab cannot be tested through `launchChromium`. Here Chromium is started by hand with
 * the flags of `launchChromium` only, and Playwright attaches over CDP with `noDefaults`, which
 * leaves focus emulation off: opening a second tab in front then makes the first one hidden
 * (`document.visibilityState === 'hidden'`), with the timer throttling a user's browser applies.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { CHROMIUM_FLAGS, chromiumPath } from './browser';

export interface HideableBrowser {
	context: BrowserContext;
	/** The first tab: the one that is hidden and shown again. */
	page: Page;
	/** Everything that went wrong in the first tab, one line each. */
	problems: string[];
	/** Opens a blank tab in front of `page`; resolves once `page` reports 'hidden'. */
	hide(): Promise<void>;
	/** Brings `page` to the front again; resolves once it reports 'visible'. */
	show(): Promise<void>;
	close(): Promise<void>;
}

async function devToolsPort(profile: string, child: ChildProcess): Promise<number> {
	const deadline = Date.now() + 30_000;
	while (Date.now() < deadline) {
		if (child.exitCode !== null) throw new Error(`Chromium exited with ${child.exitCode}`);
		const text = await readFile(join(profile, 'DevToolsActivePort'), 'utf8').catch(() => '');
		const port = Number(text.split('\n')[0]);
		if (port > 0) return port;
		await new Promise((r) => setTimeout(r, 50));
	}
	throw new Error('Chromium did not open its DevTools port within 30 s');
}

/**
 * `extraFlags` go after `CHROMIUM_FLAGS` (the browser run bench adds `--ignore-certificate-errors`
 * for its fake provider's self-signed certificate; no e2e test should).
 */
export async function launchHideableChromium(
	extraFlags: readonly string[] = []
): Promise<HideableBrowser> {
	const profile = await mkdtemp(join(tmpdir(), 'lexpilot-hidden-'));
	const child = spawn(
		chromiumPath(),
		[
			...CHROMIUM_FLAGS,
			...extraFlags,
			'--remote-debugging-port=0',
			`--user-data-dir=${profile}`,
			'about:blank'
		],
		{ stdio: 'ignore' }
	);
	let browser: Browser | null = null;
	try {
		const port = await devToolsPort(profile, child);
		// `isLocal`: files are set on inputs by path, as with a launched browser.
		browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`, {
			noDefaults: true,
			isLocal: true
		});
		const context = browser.contexts()[0];
		const page = context.pages()[0] ?? (await context.newPage());
		await page.setViewportSize({ width: 1360, height: 900 });
		const problems: string[] = [];
		page.on('console', (msg) => {
			if (msg.type() === 'error') problems.push(`console error: ${msg.text()}`);
		});
		page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
		const session = await browser.newBrowserCDPSession();
		let front: string | null = null;
		const visibility = (want: 'hidden' | 'visible') =>
			// Polled on a timer: a hidden tab gets no animation frames.
			page.waitForFunction((want) => document.visibilityState === want, want, {
				timeout: 10_000,
				polling: 100
			});
		const target = await (await context.newCDPSession(page)).send('Target.getTargetInfo');
		return {
			context,
			page,
			problems,
			async hide() {
				const created = await session.send('Target.createTarget', { url: 'about:blank' });
				front = created.targetId;
				await visibility('hidden');
			},
			async show() {
				if (front) await session.send('Target.closeTarget', { targetId: front });
				front = null;
				await session.send('Target.activateTarget', { targetId: target.targetInfo.targetId });
				await visibility('visible');
			},
			async close() {
				await browser?.close().catch(() => {});
				child.kill();
				await new Promise((r) => (child.exitCode !== null ? r(null) : child.once('exit', r)));
				await rm(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
			}
		};
	} catch (e) {
		await browser?.close().catch(() => {});
		child.kill();
		await rm(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
		throw e;
	}
}

/** Debian's Chromium for the browser benches, launched as the end-to-end tests launch it. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import { chromiumPath } from '../e2e/browser';

export interface BenchBrowser {
	context: BrowserContext;
	close(): Promise<void>;
}

/** A headless Chromium with a fresh profile (so IndexedDB starts empty), removed on close. */
export async function launchChromium(): Promise<BenchBrowser> {
	const userDataDir = await mkdtemp(join(tmpdir(), 'lexpilot-bench-'));
	try {
		const context = await chromium.launchPersistentContext(userDataDir, {
			executablePath: chromiumPath(),
			headless: true,
			// The flags of tests/e2e/browser.ts.
			args: [
				'--headless',
				'--no-sandbox',
				'--disable-gpu',
				'--disable-quic',
				'--no-first-run',
				'--disable-background-networking',
				'--disable-component-update',
				'--disable-sync'
			]
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

/** Moves between the workbench's pages the way a user does, for the e2e tests. */
import { basename, join } from 'node:path';
import type { Locator, Page } from 'playwright-core';

/**
 * Clicks `link` and waits for the page's heading (`heading`, or any) and for the navigation to
 * end. SvelteKit takes the focus from whatever holds it just before it swaps the page, so a
 * field filled before then loses what was typed. That happens when the link leads to the page
 * already shown: its heading is there at once (it made the fault matrix's run ids flaky).
 */
export async function follow(page: Page, link: Locator, heading?: string): Promise<void> {
	await link.click();
	await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
	// The click gave the link the focus; the navigation ends by taking it away.
	await link.evaluate(
		(el) =>
			new Promise<void>((done, fail) => {
				const until = Date.now() + 10_000;
				const wait = () => {
					if (document.activeElement !== el) done();
					else if (Date.now() > until) fail(new Error(`"${el.textContent}" kept the focus 10 s`));
					else setTimeout(wait, 10);
				};
				wait();
			})
	);
}

/** Follows the navigation link `label` and waits for the page's heading (`heading`, or any). */
export async function go(page: Page, label: string, heading?: string): Promise<void> {
	await follow(page, page.getByRole('link', { name: label, exact: true }), heading);
}

/**
 * Imports the bundle at `path` on the Bundles page (reached by its link): waits for the outcome
 * naming the file and fails, with what the page said, unless it is the success ("Imported N runs
 * from …"; "… was not imported: …" is a refusal).
 */
export async function importZip(page: Page, path: string): Promise<void> {
	await go(page, 'Bundles', 'Bundles');
	await page.locator('#bundle-file').setInputFiles(path);
	const outcome = page.getByTestId('bundle-outcome').filter({ hasText: basename(path) });
	await outcome.waitFor();
	const title = await outcome.locator('strong').first().innerText();
	if (
		(await outcome.getAttribute('role')) !== 'status' ||
		!/^Imported 1 run |^Imported \d+ runs /.test(title)
	) {
		throw new Error(`${basename(path)} was not imported: ${await outcome.innerText()}`);
	}
}

/**
 * On the Bundles page (reached by its link), ticks the run checkbox named `select` (`Select
 * <run id> …`, or `Select every run`), exports that one run and saves the zip under `dir`.
 */
export async function exportRun(page: Page, select: RegExp, dir: string): Promise<string> {
	await go(page, 'Bundles', 'Bundles');
	await page.getByRole('checkbox', { name: select }).check();
	const [download] = await Promise.all([
		page.waitForEvent('download'),
		page.getByRole('button', { name: /Export 1 selected run as \.zip/ }).click()
	]);
	const saved = join(dir, download.suggestedFilename());
	await download.saveAs(saved);
	return saved;
}

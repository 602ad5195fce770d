/** Moves between the workbench's pages the way a user does, for the e2e tests. */
import type { Page } from 'playwright-core';

/** Follows the navigation link `label` and waits for the page's heading. */
export async function go(page: Page, label: string, heading: string): Promise<void> {
	await page.getByRole('link', { name: label, exact: true }).click();
	await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
}

/** Imports the bundle at `path` on the Bundles page (reached by its link) and waits for "Imported". */
export async function importZip(page: Page, path: string): Promise<void> {
	await go(page, 'Bundles', 'Bundles');
	await page.locator('#bundle-file').setInputFiles(path);
	await page.getByTestId('bundle-outcome').filter({ hasText: 'Imported' }).waitFor();
}

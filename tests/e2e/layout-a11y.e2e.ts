/**
 * Every page at a phone's width and a laptop's: nothing scrolls sideways, the nav collapses into
 * a menu, axe-core finds no serious or critical violation, and every control is reached by Tab
 * and visible when focused. Screenshots of each go to test-results/screenshots/.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBrowser, type E2E } from './browser';
import { sidewaysOverflow } from './i18n-support';
import { settled, visit } from './phone-support';
import { fillRunForm, loadSampleDataset, waitForRunStatus } from './run-support';

const PHONE = { width: 390, height: 844 };
const LAPTOP = { width: 1366, height: 900 };
const PAGES = [
	{ path: '/', heading: 'LexPilot Workbench' },
	{ path: '/dataset', heading: 'Dataset' },
	{ path: '/models', heading: 'Models & settings' },
	{ path: '/prompts', heading: 'Prompts' },
	{ path: '/run', heading: 'Run' },
	{ path: '/results', heading: 'Results' },
	{ path: '/inspect', heading: 'Case inspector' },
	{ path: '/bundles', heading: 'Bundles' },
	{ path: '/no-such-page', heading: 'Page not found' }
];

let e: E2E;
let axeSource: string;

beforeAll(async () => {
	axeSource = await readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
	e = await startBrowser({ viewport: LAPTOP });
	// A finished simulated run, so Results, Inspect and Bundles show what a user sees.
	const { page } = e;
	await loadSampleDataset(page, e.url);
	await page.getByRole('link', { name: 'Models', exact: true }).click();
	await page.getByTestId('mode-simulated').check();
	await fillRunForm(page, { runId: 'layout', limit: 3 });
	await page.getByTestId('start').click();
	await waitForRunStatus(page, 'done', 90_000);
});

afterAll(async () => {
	await e?.close();
});

/**
 * What a page reads after it mounts, drawn: the run's report with its intervals (Results' charts
 * and tables come with it), its cases, its stored runs, the Run page's form.
 */
const READ: Record<string, string> = {
	'/run': '[data-testid="run-id"]',
	'/results': '[data-testid="ci-status"][data-status="ready"]',
	'/inspect': '[data-testid="case-table"]',
	'/bundles': '[data-testid="stored-runs"]'
};

/** Client-side navigation keeps the loaded dataset and the simulated choice. */
async function open(page: Page, path: string, heading: string) {
	if (path === '/no-such-page') await page.goto(`${e.url}${path}`);
	else await visit(page, e.url, path);
	await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
	if (READ[path]) await page.locator(READ[path]).waitFor({ state: 'attached', timeout: 60_000 });
	await settled(page);
}

async function axeViolations(page: Page) {
	if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
	return page.evaluate(async () => {
		const axe = (window as unknown as { axe: { run(): Promise<AxeResult> } }).axe;
		interface AxeResult {
			violations: Array<{
				id: string;
				impact: string;
				help: string;
				nodes: { target: string[] }[];
			}>;
		}
		const result = await axe.run();
		return result.violations
			.filter((v) => v.impact === 'serious' || v.impact === 'critical')
			.map(
				(v) =>
					`${v.id} (${v.impact}): ${v.help} at ${v.nodes
						.map((n) => n.target.join(' '))
						.slice(0, 3)
						.join(', ')}`
			);
	});
}

describe.each([
	['phone', PHONE],
	['laptop', LAPTOP]
])('every page on a %s', (name, viewport) => {
	beforeAll(async () => {
		await e.page.setViewportSize(viewport);
	});

	it.each(PAGES)(
		'$path: no sideways scroll, no serious axe violation',
		async ({ path, heading }) => {
			const { page } = e;
			await open(page, path, heading);
			const shot = path === '/' ? 'home' : path.slice(1);
			await e.screenshot(`${name}-${shot}`);
			const overflow = await sidewaysOverflow(page);
			expect(overflow.wide, `elements wider than the ${name} screen`).toEqual([]);
			expect(overflow.scrollWidth).toBeLessThanOrEqual(overflow.clientWidth);
			expect(await axeViolations(page)).toEqual([]);
			if (name === 'phone') {
				// The nav is a menu: hidden until opened.
				const nav = page.getByRole('navigation', { name: 'Main' });
				expect(await nav.isVisible()).toBe(false);
				await page.getByRole('button', { name: 'Menu' }).click();
				await nav.getByRole('link', { name: 'Results' }).waitFor();
				expect(await page.getByRole('button', { name: 'Menu' }).getAttribute('aria-expanded')).toBe(
					'true'
				);
				await page.getByRole('button', { name: 'Menu' }).click();
				expect(await nav.isVisible()).toBe(false);
			}
		}
	);
});

describe('keyboard', () => {
	beforeAll(async () => {
		await e.page.setViewportSize(LAPTOP);
	});

	it.each(PAGES)(
		'$path: the skip link comes first, and Tab reaches every control, visibly',
		async ({ path, heading }) => {
			const { page } = e;
			await open(page, path, heading);
			await page.evaluate(() => {
				(document.activeElement as HTMLElement | null)?.blur();
				window.scrollTo(0, 0);
			});
			// Mark every control a user could operate.
			const controls = await page.evaluate(() => {
				const sel =
					'a[href], button, input, select, textarea, summary, [tabindex]:not([tabindex="-1"])';
				let n = 0;
				for (const el of document.querySelectorAll<HTMLElement>(sel)) {
					const style = getComputedStyle(el);
					const hidden =
						el.closest('[hidden], [inert]') !== null ||
						style.visibility === 'hidden' ||
						el.getClientRects().length === 0 ||
						// Inside a closed <details>: not a control until it is opened.
						!el.checkVisibility({ visibilityProperty: true }) ||
						// Disabled itself or through its <fieldset>: not operable, not a tab stop.
						el.matches(':disabled');
					if (hidden) continue;
					// Tab stops once in a radio group, on its checked button (arrows move within it).
					if (el instanceof HTMLInputElement && el.type === 'radio' && el.name) {
						const group = [
							...document.querySelectorAll<HTMLInputElement>(`input[type=radio][name="${el.name}"]`)
						];
						if (el !== (group.find((r) => r.checked) ?? group[0])) continue;
					}
					el.dataset.kbd = String(n++);
				}
				return n;
			});
			await page.keyboard.press('Tab');
			expect(await page.evaluate(() => document.activeElement?.textContent?.trim())).toBe(
				'Skip to content'
			);
			const reached = new Set<string>();
			const invisible: string[] = [];
			for (let i = 0; i < controls + 20; i++) {
				const seen = await page.evaluate(() => {
					const el = document.activeElement as HTMLElement | null;
					if (!el || el === document.body) return null;
					const r = el.getBoundingClientRect();
					const visible =
						r.width > 0 &&
						r.height > 0 &&
						r.bottom > 0 &&
						r.top < innerHeight &&
						r.right > 0 &&
						r.left < innerWidth;
					return {
						id: el.dataset.kbd ?? null,
						visible,
						what: `${el.tagName} ${el.textContent?.trim().slice(0, 30)}`
					};
				});
				if (seen?.id) {
					if (reached.has(seen.id)) break;
					reached.add(seen.id);
					if (!seen.visible && seen.what !== 'A Skip to content') invisible.push(seen.what);
				}
				await page.keyboard.press('Tab');
			}
			expect(invisible, 'controls focused while off screen or without a box').toEqual([]);
			const missed = await page.evaluate(
				(reached) =>
					[...document.querySelectorAll<HTMLElement>('[data-kbd]')]
						.filter((el) => !reached.includes(el.dataset.kbd!))
						.map((el) => `${el.tagName} ${el.textContent?.trim().slice(0, 30) ?? ''}`),
				[...reached]
			);
			expect(missed, 'controls Tab never reached').toEqual([]);
		}
	);
});

/**
 * What the language end-to-end tests share: the two viewports, navigation by the main menu, a
 * check that no English interface text is left on a Chinese page, and a check for sideways
 * scrolling. The English check reads the page's main area (data, code and whatever `exclude`
 * names left out) and reports pieces of the given areas' English messages that no Chinese
 * message contains, and any run of two or more English words that no Chinese message contains.
 */
import { readFile, readdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { follow } from './page-support';

const ROOT = resolve(import.meta.dirname, '../..');
export const PHONE = { width: 390, height: 844 };
export const LAPTOP = { width: 1366, height: 900 };

/** The paper's metric names as the Results page pairs them: the same in both languages. */
export const PAPER_TERMS = [
	...['Direct', 'Gold', 'Interaction'].flatMap((s) => [`LJP ${s} QWK`, `${s} QWK`]),
	...['Macro-F1', 'F1_U', 'F1_C', 'Acc_C', 'Acc_U'].map((name) => `LCA ${name}`)
];

/** Text that is data or code on every page (or no text at all: scripts): never interface text. */
const DATA = [
	'code',
	'pre',
	'.mono',
	'[lang="zh-Hans"]',
	'script',
	'style',
	'noscript',
	'template'
];

type Messages = Record<string, string>;
/** A message with variants (`[{ selectors, match: { 'n=1': …, 'n=*': … } }]`) as its texts, one a line. */
type Variants = { match: Record<string, string> }[];
async function messages(file: string): Promise<Messages> {
	const all = JSON.parse(await readFile(join(ROOT, 'messages', file), 'utf8')) as Record<
		string,
		string | Variants
	>;
	return Object.fromEntries(
		Object.entries(all)
			.filter(([k]) => !k.startsWith('$'))
			.map(([k, v]) => [
				k,
				typeof v === 'string' ? v : v.flatMap((d) => Object.values(d.match)).join('\n')
			])
	);
}

/**
 * What the page's `root` (its main area, or the whole page with `body`) says, data and code (and
 * the `exclude` selectors) left out.
 */
export async function interfaceText(
	page: Page,
	exclude: readonly string[] = [],
	root = 'main'
): Promise<string> {
	const selector = [...DATA, ...exclude].join(',');
	return page.locator(root).evaluate((main, selector) => {
		const out: string[] = [];
		const walker = document.createTreeWalker(main, NodeFilter.SHOW_TEXT);
		for (let n = walker.nextNode(); n; n = walker.nextNode()) {
			if (!n.parentElement?.closest(selector)) out.push(n.textContent ?? '');
		}
		for (const el of main.querySelectorAll<HTMLElement>('[aria-label], [placeholder], [title]')) {
			if (el.closest(selector)) continue;
			for (const name of ['aria-label', 'placeholder', 'title']) {
				const value = el.getAttribute(name);
				if (value) out.push(value);
			}
		}
		// The chosen option of each list is what it shows.
		for (const select of main.querySelectorAll('select')) {
			if (!select.closest(selector)) out.push(select.selectedOptions[0]?.textContent ?? '');
		}
		return out.join('\n');
	}, selector);
}

export interface LanguageCheck {
	/**
	 * English interface text on the page; `data` (file names, run and model ids, the paper's
	 * metric names) is taken out first.
	 */
	englishLeft(page: Page, data?: readonly string[]): Promise<string[]>;
	/**
	 * Chinese interface text on an English page: a piece of a Chinese message of the areas (four
	 * characters or more, placeholders cut out) that no English message holds. Data marked
	 * `lang="zh-Hans"` (case text, causes, classes) is left out, and so is `data`.
	 */
	chineseLeft(page: Page, data?: readonly string[]): Promise<string[]>;
}

/** Every message of `areas` in `locale`. */
async function areaMessages(areas: readonly string[], locale: string): Promise<string[]> {
	const all = await Promise.all(
		areas.map((a) => messages(a ? `${a}/${locale}.json` : `${locale}.json`))
	);
	return all.flatMap((m) => Object.values(m));
}

/** The message `key` of `area` ('' for the app shell) in `locale`, placeholders filled. */
export async function message(
	area: string,
	locale: string,
	key: string,
	values: Record<string, string | number> = {}
): Promise<string> {
	const all = await messages(area ? `${area}/${locale}.json` : `${locale}.json`);
	if (!(key in all)) throw new Error(`no message ${key} in ${area || 'the app shell'}`);
	return all[key].replace(/\{(\w+)\}/g, (_, name: string) => String(values[name]));
}

/**
 * A checker for the messages of `areas` (folders of messages/; '' for the app shell), leaving
 * out the `exclude` selectors (e.g. the core's own English diagnoses), reading `root` (the main
 * area; `body` for the header and its menu too).
 */
export async function languageChecker(
	areas: readonly string[],
	exclude: readonly string[] = [],
	root = 'main'
): Promise<LanguageCheck> {
	const areaFiles = (await readdir(join(ROOT, 'messages'), { withFileTypes: true }))
		.filter((d) => d.isDirectory())
		.map((d) => `${d.name}/zh-CN.json`);
	/** Every Chinese message of the app: English inside one (a product name, "Base URL") is meant. */
	const zhTexts = (await Promise.all(['zh-CN.json', ...areaFiles].map(messages))).flatMap((m) =>
		Object.values(m)
	);
	const en = await areaMessages(areas, 'en');
	const enAll = await areaMessages(['', ...areaFiles.map((f) => f.split('/')[0])], 'en');
	/** The Chinese pieces of the areas' messages that no English message holds. */
	const chinesePieces = [
		...new Set(
			(await areaMessages(areas, 'zh-CN'))
				.flatMap((text) => text.split(/\{\w+\}/))
				.map((piece) => piece.trim())
				.filter((piece) => /[\u4e00-\u9fff]/.test(piece) && [...piece].length >= 4)
				.filter((piece) => !enAll.some((text) => text.includes(piece)))
		)
	];
	/** The English pieces of the areas' messages (placeholders cut out) that Chinese lacks. */
	const englishPieces = [
		...new Set(
			en
				.flatMap((text) => text.split(/\{\w+\}/))
				.map((piece) => piece.trim())
				.filter((piece) => /[A-Za-z]{2}/.test(piece))
				.filter((piece) => !zhTexts.some((zh) => zh.includes(piece)))
		)
	];
	return {
		async englishLeft(page, data = []) {
			let text = await interfaceText(page, exclude, root);
			for (const d of data) text = text.split(d).join(' ');
			const found: string[] = [];
			const context = (at: number, piece: string) =>
				`${piece} (in "${text.slice(Math.max(0, at - 30), at + piece.length + 30).replace(/\s+/g, ' ')}")`;
			for (const piece of englishPieces) {
				const escaped = piece.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
				const at = text.search(new RegExp(`(?<![A-Za-z])${escaped}(?![A-Za-z])`));
				if (at >= 0) found.push(context(at, piece));
			}
			for (const match of text.matchAll(/[A-Za-z][\w.'-]*(?:[ ]+[A-Za-z][\w.'-]*)+/g)) {
				if (!zhTexts.some((zh) => zh.includes(match[0])))
					found.push(context(match.index, match[0]));
			}
			return [...new Set(found)];
		},
		async chineseLeft(page, data = []) {
			let text = await interfaceText(page, [...exclude, '[lang="zh-Hans"]'], root);
			for (const d of data) text = text.split(d).join(' ');
			return chinesePieces.filter((piece) => text.includes(piece));
		}
	};
}

/** Follows a link of the main menu and waits for the page's heading. */
export async function go(page: Page, link: string, heading: string): Promise<void> {
	await follow(
		page,
		page.locator('#main-nav').getByRole('link', { name: link, exact: true }),
		heading
	);
}

/** What {@link planForm} types on the Run page: the plan's run id, its models, a case limit. */
export interface PlanFormFill {
	runId: string;
	models: readonly string[];
	limit?: number;
}

/**
 * The plan e2e's common start, in `locale`'s words: the sample loaded, the simulated provider
 * chosen on Models, and the Run page open with the plan's run id, case limit and models typed.
 */
export async function planForm(
	page: Page,
	url: string,
	locale: string,
	fill: PlanFormFill
): Promise<void> {
	const t = (area: string, key: string) => message(area, locale, key);
	await page.goto(`${url}/`);
	await go(page, await t('', 'nav_dataset'), await t('dataset', 'dataset_title'));
	await page.getByRole('button', { name: await t('dataset', 'dataset_load_sample') }).click();
	await page.getByTestId('summary-stats').waitFor();
	await go(page, await t('', 'nav_models'), await t('models', 'models_title'));
	await page.getByTestId('mode-simulated').check();
	await go(page, await t('', 'nav_run'), await t('run', 'run_title'));
	await page.getByTestId('run-id').fill(fill.runId);
	if (fill.limit !== undefined) await page.getByTestId('run-limit').fill(String(fill.limit));
	for (const [i, model] of fill.models.entries()) {
		if (i > 0) await page.getByTestId('plan-add-model').click();
		await page.getByTestId(`plan-model-id-${i}`).fill(model);
	}
}

/**
 * Waits for the plan's status badge (Run page) to show one of `statuses` (`running`, `paused`,
 * `done`, …) and returns the one it shows. Playwright's wait for the badge ends as soon as the
 * page shows it; `timeout` only bounds a plan that never gets there.
 */
export async function planStatus(
	page: Page,
	statuses: string | readonly string[],
	timeout = 120_000
): Promise<string> {
	const wanted = typeof statuses === 'string' ? [statuses] : statuses;
	const badge = page
		.locator(wanted.map((s) => `[data-testid="plan-status"][data-status="${s}"]`).join(', '))
		.first();
	await badge.waitFor({ state: 'attached', timeout });
	return (await badge.getAttribute('data-status')) ?? '';
}

/** Waits one animation frame (a resize laid out). */
export async function nextFrame(page: Page): Promise<void> {
	await page.evaluate(() => new Promise((ok) => requestAnimationFrame(() => ok(undefined))));
}

/** How wide the page is against the window, and the first elements that stick out. */
export async function sidewaysOverflow(page: Page) {
	return page.evaluate(() => {
		const root = document.documentElement;
		const wide = [...document.querySelectorAll<HTMLElement>('body *')]
			.filter((el) => el.getBoundingClientRect().right > root.clientWidth + 1)
			.filter((el) => !el.closest('.table-wrap, pre, [data-scroll-x]'))
			.slice(0, 5)
			.map((el) => `${el.tagName.toLowerCase()}.${el.className}: ${el.textContent?.slice(0, 40)}`);
		return { scrollWidth: root.scrollWidth, clientWidth: root.clientWidth, wide };
	});
}

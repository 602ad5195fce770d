/**
 * What the phone walk measures on a page: every control a user could operate (button, link,
 * input, select, textarea, summary, [role=button]) must lie inside the window from left to right,
 * and inside every box around it that clips or scrolls sideways (a control reached only by
 * scrolling a table sideways is off screen); each table keeps the column that names its rows
 * in view wherever it is scrolled, and the column it is about (`th[data-main]`) in view as shown.
 */
import type { Page } from 'playwright-core';

/** Controls whose box leaves the window or a box that clips it sideways, one line each. */
export async function controlsOffScreen(page: Page): Promise<string[]> {
	return page.evaluate(() => {
		const selector = 'button, a[href], input, select, textarea, summary, [role="button"]';
		const out: string[] = [];
		const width = document.documentElement.clientWidth;
		for (const el of document.querySelectorAll<HTMLElement>(selector)) {
			if (el.closest('[hidden], [inert]')) continue;
			if (!el.checkVisibility({ visibilityProperty: true })) continue;
			const r = el.getBoundingClientRect();
			// Visually hidden on purpose (a native input under its styled label, the screen-reader text).
			if (r.width <= 1 || r.height <= 1) continue;
			let left = 0;
			let right = width;
			for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
				if (getComputedStyle(p).overflowX === 'visible') continue;
				const box = p.getBoundingClientRect();
				left = Math.max(left, box.left);
				right = Math.min(right, box.right);
			}
			if (r.left < left - 1 || r.right > right + 1) {
				const name = (el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 40);
				out.push(
					`${el.tagName.toLowerCase()} "${name}" at x ${Math.round(r.left)}–${Math.round(r.right)} (visible ${Math.round(left)}–${Math.round(right)})`
				);
			}
		}
		return out;
	});
}

/**
 * Tables whose first column (the one that names the row) leaves its scroll box when the box is
 * scrolled to its far right: neither pinned nor fitting.
 */
export async function tablesLosingRowNames(page: Page): Promise<string[]> {
	return page.evaluate(async () => {
		const out: string[] = [];
		const boxes = [...document.querySelectorAll<HTMLElement>('main *')].filter(
			(el) => getComputedStyle(el).overflowX !== 'visible' && el.scrollWidth > el.clientWidth + 1
		);
		for (const box of boxes) {
			const before = box.scrollLeft;
			box.scrollLeft = box.scrollWidth;
			await new Promise((ok) => requestAnimationFrame(ok));
			const edge = box.getBoundingClientRect();
			for (const table of box.querySelectorAll('table')) {
				if (!table.checkVisibility()) continue;
				const first = table.querySelector<HTMLElement>('tbody tr > :first-child');
				if (!first) continue;
				const r = first.getBoundingClientRect();
				if (r.width > 1 && (r.left < edge.left - 1 || r.right > edge.right + 1)) {
					const id = table.dataset.testid ?? table.className;
					out.push(`table ${id}: "${first.textContent?.trim().slice(0, 30)}" scrolls away`);
				}
			}
			box.scrollLeft = before;
		}
		return out;
	});
}

/**
 * Tables whose main column (the one the page is about, its header marked `data-main`) is not in
 * view as the table first shows: a body cell of that column leaves the window or the box that
 * scrolls it sideways. A table stacked as cards shows every cell, so passes.
 */
export async function tablesHidingMainColumn(page: Page): Promise<string[]> {
	return page.evaluate(() => {
		const out: string[] = [];
		const width = document.documentElement.clientWidth;
		for (const th of document.querySelectorAll<HTMLTableCellElement>('main th[data-main]')) {
			const table = th.closest('table')!;
			if (!table.checkVisibility()) continue;
			const header = th.parentElement as HTMLTableRowElement;
			const rows = [...table.tBodies].flatMap((b) => [...b.rows]);
			const row = rows.find((r) => r.cells.length === header.cells.length);
			const cell = row?.cells[th.cellIndex];
			if (!cell) continue;
			const r = cell.getBoundingClientRect();
			let left = 0;
			let right = width;
			for (let p = cell.parentElement; p && p !== document.body; p = p.parentElement) {
				if (getComputedStyle(p).overflowX === 'visible') continue;
				const box = p.getBoundingClientRect();
				left = Math.max(left, box.left);
				right = Math.min(right, box.right);
			}
			if (r.width <= 1 || r.left < left - 1 || r.right > right + 1) {
				const id = table.dataset.testid ?? table.className;
				const name = th.textContent?.trim().slice(0, 30);
				out.push(
					`table ${id}: main column "${name}" at x ${Math.round(r.left)}–${Math.round(r.right)} (visible ${Math.round(left)}–${Math.round(right)})`
				);
			}
		}
		return out;
	});
}

/**
 * Waits for the page shown to be ready: the layout marks `main[data-ready]` with the page's path
 * once it has mounted, its `load` is done, the earlier dataset is read back and the fonts are in
 * (and clears it while a navigation is under way); then two frames, for what a resize or the last
 * change lays out (a table that scrolls becomes a Tab stop at the frame after its layout).
 */
export async function settled(page: Page): Promise<void> {
	await page.waitForFunction(
		() => document.querySelector('main')?.dataset.ready === location.pathname,
		null,
		{ polling: 50 }
	);
	await page.evaluate(
		() => new Promise<void>((ok) => requestAnimationFrame(() => requestAnimationFrame(() => ok())))
	);
}

/**
 * Goes to `path` by a link click inside the app (the loaded dataset, the keys typed and a run
 * under way stay) and waits for the page to rest.
 */
export async function visit(page: Page, url: string, path: string): Promise<void> {
	await page.evaluate((href) => {
		const a = document.createElement('a');
		a.href = href;
		document.body.append(a);
		a.click();
		a.remove();
	}, `${url}${path}`);
	await page.waitForFunction(
		(href) => location.pathname === new URL(href).pathname && !!document.querySelector('main h1'),
		`${url}${path}`,
		{ polling: 50 }
	);
	await settled(page);
}

/**
 * Tables and badges wider than the bordered box they sit in (a card, a panel), with no box
 * between them that scrolls sideways: their edge runs over the box's border.
 */
export async function boxesOverrun(page: Page): Promise<string[]> {
	return page.evaluate(() => {
		const out: string[] = [];
		for (const table of document.querySelectorAll<HTMLElement>('main table, main .badge')) {
			if (!table.checkVisibility()) continue;
			for (let p = table.parentElement; p && p.tagName !== 'MAIN'; p = p.parentElement) {
				const style = getComputedStyle(p);
				if (style.overflowX !== 'visible') break;
				const border = parseFloat(style.borderRightWidth);
				if (border === 0 || style.borderRightStyle === 'none') continue;
				const edge = p.getBoundingClientRect().right - border;
				const right = table.getBoundingClientRect().right;
				if (right > edge + 1) {
					const id = table.dataset.testid ?? table.textContent?.trim().slice(0, 30);
					const what = table.tagName.toLowerCase();
					out.push(`${what} ${id} runs ${Math.round(right - edge)} px over its box's border`);
				}
				break;
			}
		}
		return out;
	});
}

/**
 * What a page writes carelessly: a raw ISO time; on a Chinese page an English abbreviation such
 * as "n/r" or a comma between Chinese words; on an English page a plural after 1 ("1 cases").
 */
export async function writingSlips(page: Page, chinese: boolean): Promise<string[]> {
	// [下限, 上限] is the interval's notation, as in [low, high].
	const text = (await page.locator('main').innerText()).replaceAll('[下限, 上限]', '');
	const slips: [RegExp, string, boolean][] = [
		[/\d{4}-\d\d-\d\dT\d\d:\d\d[^\s]*/g, 'raw ISO time', true],
		[/(?<![\w/.:<-])[A-Za-z]{1,3}\/[A-Za-z]{1,3}(?![\w/>])/g, 'English abbreviation', chinese],
		[/[\u4e00-\u9fff）], [\u4e00-\u9fff]/g, 'comma between Chinese words', chinese],
		[
			/(?<![\d.,]|of )\b1 (cases|runs|calls|records|claims|sessions|models)\b/g,
			'plural after 1',
			!chinese
		]
	];
	return slips.flatMap(([pattern, what, applies]) =>
		applies ? [...text.matchAll(pattern)].map((m) => `${what}: "${m[0]}"`) : []
	);
}

/**
 * Cells matched by `selector` that leave the window or a box around them that clips or scrolls
 * sideways, as the page first shows them: one line each.
 */
export async function cellsOutOfView(page: Page, selector: string): Promise<string[]> {
	return page.evaluate((selector) => {
		const out: string[] = [];
		const width = document.documentElement.clientWidth;
		for (const cell of document.querySelectorAll<HTMLElement>(selector)) {
			if (!cell.checkVisibility()) continue;
			const r = cell.getBoundingClientRect();
			let left = 0;
			let right = width;
			for (let p = cell.parentElement; p && p !== document.body; p = p.parentElement) {
				if (getComputedStyle(p).overflowX === 'visible') continue;
				const box = p.getBoundingClientRect();
				left = Math.max(left, box.left);
				right = Math.min(right, box.right);
			}
			if (r.left < left - 1 || r.right > right + 1) {
				const name = (cell.dataset.testid ?? cell.textContent ?? '').trim().slice(0, 30);
				out.push(
					`cell "${name}" at x ${Math.round(r.left)}–${Math.round(r.right)} (visible ${Math.round(left)}–${Math.round(right)})`
				);
			}
		}
		return out;
	}, selector);
}

/** The text of the first control matched by `selector`'s labels that is shown in the window. */
export async function visibleLabel(page: Page, selector: string): Promise<string> {
	return page.locator(selector).evaluate((el) => {
		const width = document.documentElement.clientWidth;
		const labels = [...((el as HTMLInputElement).labels ?? [])];
		const shown = (node: Node) => {
			const range = document.createRange();
			range.selectNodeContents(node);
			const r = range.getBoundingClientRect();
			return r.width > 1 && r.height > 1 && r.left >= -1 && r.right <= width + 1;
		};
		const texts = labels.flatMap((label) => {
			const walker = document.createTreeWalker(label, NodeFilter.SHOW_TEXT);
			const parts: string[] = [];
			for (let n = walker.nextNode(); n; n = walker.nextNode()) {
				const parent = n.parentElement!;
				if (n.textContent?.trim() && parent.checkVisibility() && shown(n)) {
					// Clipped to nothing (visually hidden) is not shown.
					const clip = getComputedStyle(parent).clipPath;
					if (clip === 'none' || clip === '') parts.push(n.textContent.trim());
				}
			}
			return parts;
		});
		return texts.join(' ');
	});
}

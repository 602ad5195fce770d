/**
 * A chart the browser cannot turn into a PNG is refused in the interface language (the Results
 * page shows the message as it is). The browser's image and canvas are stood in for.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { baseLocale, overwriteGetLocale } from '$lib/paraglide/runtime';
import { svgToPng } from './svg-png';

/** An image that loads (or fails to), and a canvas with or without a 2D context and a blob. */
function browser(options: { loads: boolean; context: boolean; blob: boolean }) {
	vi.stubGlobal(
		'Image',
		class {
			onload: (() => void) | null = null;
			onerror: (() => void) | null = null;
			set src(_: string) {
				queueMicrotask(() => (options.loads ? this.onload?.() : this.onerror?.()));
			}
		}
	);
	const canvas = {
		width: 0,
		height: 0,
		getContext: () =>
			options.context ? { fillStyle: '', fillRect: () => {}, drawImage: () => {} } : null,
		toBlob: (done: (b: Blob | null) => void) => done(options.blob ? new Blob(['png']) : null)
	};
	vi.stubGlobal('document', { createElement: () => canvas });
}

// The locale is given, not read from the stand-in document.
beforeEach(() => overwriteGetLocale(() => baseLocale));
afterEach(() => {
	vi.unstubAllGlobals();
	overwriteGetLocale(() => baseLocale);
});

describe('svgToPng', () => {
	const cases = [
		[
			'an image the browser cannot draw',
			{ loads: false, context: true, blob: true },
			'The browser could not draw the chart as an image.',
			'浏览器无法把图表绘制成图像。'
		],
		[
			'no 2D canvas',
			{ loads: true, context: false, blob: true },
			'This browser has no 2D canvas to draw the PNG on.',
			'这个浏览器没有可以绘制 PNG 的二维画布。'
		],
		[
			'a canvas that gives no PNG',
			{ loads: true, context: true, blob: false },
			'The browser could not turn the chart into a PNG.',
			'浏览器无法把图表转换成 PNG。'
		]
	] as const;

	it.each(cases)('refuses %s in the interface language', async (_, setup, en, zh) => {
		browser(setup);
		await expect(svgToPng('<svg/>', 10, 10, 2)).rejects.toThrow(en);
		overwriteGetLocale(() => 'zh-CN');
		await expect(svgToPng('<svg/>', 10, 10, 2)).rejects.toThrow(zh);
	});

	it('gives the PNG when the browser draws it', async () => {
		browser({ loads: true, context: true, blob: true });
		expect(await svgToPng('<svg/>', 10, 10, 2)).toBeInstanceOf(Blob);
	});
});

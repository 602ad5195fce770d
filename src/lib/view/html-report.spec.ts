import { describe, expect, it } from 'vitest';
import { htmlReport, type HtmlReportInput } from './html-report';
import { testFigure } from '../../../tests/support/test-figure';

function input(over: Partial<HtmlReportInput> = {}): HtmlReportInput {
	return {
		title: 'LexPilot results',
		generatedAt: '2026-12-03T10:00:00.000Z',
		runs: [{ label: 'gpt-x · run1', detail: '40 cases' }],
		figures: [testFigure(), testFigure({ id: 'dcg-class', title: 'DCG success by class' })],
		confusion: [
			{
				label: 'gpt-x · run1',
				setup: 'Direct',
				matrix: [
					[5, 1, 0],
					[0, 2, 1],
					[0, 0, 3]
				]
			}
		],
		verdicts: ['支持', '部分支持', '驳回'],
		uncertainty: ['Brackets: a bootstrap interval.'],
		notes: [],
		...over
	};
}

describe('htmlReport', () => {
	it('has an inline <svg> per chart and the tables with their intervals', () => {
		const html = htmlReport(input());
		expect(html.startsWith('<!doctype html>')).toBe(true);
		expect((html.match(/<svg /g) ?? []).length).toBe(2);
		expect(html).toContain('0.6200 [0.5700, 0.6600]');
		expect(html).toContain('<td>40 cases</td>');
		expect(html).toContain('<td class="num">5</td>');
		expect(html).toContain('部分支持');
	});

	it('says when it was made in its language, and keeps charts readable on a phone', () => {
		const html = htmlReport(input({ locale: 'en' }));
		expect(html).not.toContain('2026-12-03T10:00');
		expect(html).toMatch(/Dec 3, 2026, \d+:00:00/);
		// Below 40rem a chart keeps a readable width and scrolls inside its figure.
		expect(html).toContain('@media (max-width:40rem){figure,table{display:block;overflow-x:auto}');
	});

	it('refers to nothing outside itself: no script, link, src, href, url() or @import', () => {
		const html = htmlReport(input());
		expect(html).not.toMatch(/<script|<link|<img|<iframe|\ssrc=|\shref=|url\(|@import/i);
		// The only URLs are the SVG namespace names, which are never fetched.
		const urls = html.match(/https?:\/\/[^\s"'<>]+/g) ?? [];
		expect(new Set(urls)).toEqual(new Set(['http://www.w3.org/2000/svg']));
		expect(html).toContain(`content="default-src 'none'; style-src 'unsafe-inline'"`);
	});

	it('escapes hostile model ids, class names and notes everywhere', () => {
		const evil = '<img src=x onerror=alert(1)>';
		const fig = testFigure();
		fig.series[0].label = evil;
		fig.categories[1] = `${evil}&`;
		fig.title = `</title><script>alert(2)</script>`;
		const html = htmlReport(
			input({
				title: evil,
				runs: [{ label: evil, detail: evil }],
				figures: [fig],
				confusion: [
					{
						label: evil,
						setup: evil,
						matrix: [
							[1, 0, 0],
							[0, 1, 0],
							[0, 0, 1]
						]
					}
				],
				notes: [evil]
			})
		);
		expect(html).not.toContain('<img');
		expect(html).not.toContain('<script');
		expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
	});
});

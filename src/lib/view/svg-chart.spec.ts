import { describe, expect, it } from 'vitest';
import { escapeControl } from '$lib/core/text/escape-control';
import { figureSvg, wrapLabel, xmlEscape } from './svg-chart';
import { testFigure } from '../../../tests/support/test-figure';

const count = (text: string, re: RegExp) => (text.match(re) ?? []).length;

describe('figureSvg', () => {
	it('draws one bar per defined value, a dash per undefined one, a whisker per interval', () => {
		const svg = figureSvg(testFigure());
		expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
		expect(count(svg, /<rect [^>]*data-value=/g)).toBe(3);
		expect(count(svg, /data-undefined="true"/g)).toBe(1);
		// Two cells have an interval; the third (qwen, 合同纠纷) has none.
		expect(count(svg, /class="whisker"/g)).toBe(2);
		expect(svg).toContain('>合同纠纷<');
		expect(svg).toContain('>1.0<');
		expect(svg).not.toMatch(/[-\u2212]0\.0</);
	});

	it('clips a whisker that runs past the axis to the axis', () => {
		const svg = figureSvg(testFigure(), { width: 720, height: 360 });
		// Every whisker coordinate lies inside the plot: no y above the top tick line.
		const topTick = Math.min(
			...[...svg.matchAll(/<line x1="[\d.]+" x2="[\d.]+" y1="([\d.]+)"/g)].map((m) => Number(m[1]))
		);
		const ys = [...svg.matchAll(/class="whisker" d="([^"]+)"/g)].flatMap((m) => [
			...[...m[1].matchAll(/M[\d.]+ ([\d.]+)/g)].map((p) => Number(p[1])),
			...[...m[1].matchAll(/V([\d.]+)/g)].map((p) => Number(p[1]))
		]);
		expect(ys.length).toBeGreaterThan(0);
		for (const y of ys) expect(y).toBeGreaterThanOrEqual(topTick - 0.01);
	});

	it('escapes hostile labels and drops a colour that is not a hex colour', () => {
		const fig = testFigure();
		fig.series[0].label = '<script>alert(1)</script>"&\u0007';
		fig.series[0].color = 'red" onload="x';
		fig.categories[0] = '</text><image href="http://evil.example/x.png"/>';
		const svg = figureSvg(fig);
		expect(svg).not.toContain('<script>');
		expect(svg).not.toContain('<image');
		expect(svg).not.toContain('onload=');
		expect(svg).toContain('&lt;script&gt;');
		expect(svg).toContain('\\u0007');
		expect(svg).not.toContain('\u0007');
	});

	it('paper figure: class names keep to their own slot and classes with no case are left out', () => {
		const classes = [
			'人格权与其他民事纠纷',
			'婚姻家庭与继承纠纷',
			'劳动与人事争议',
			'侵权责任纠纷',
			'民间借贷纠纷',
			'物权纠纷',
			'知识产权与竞争纠纷'
		];
		const fig = testFigure({ categories: classes });
		const cell = (value: number, cases: number) => ({
			value,
			notes: [],
			counts: { cases, claims: cases }
		});
		fig.cells = fig.series.map(() => classes.map((_, c) => (c === 6 ? cell(0, 0) : cell(0.5, 3))));
		const svg = figureSvg(fig, { layout: 'paper' });
		expect(svg).not.toContain('知识产权');
		const labels = [...svg.matchAll(/<text [^>]*data-category="">(.*?)<\/text>/g)].map((m) =>
			[...m[1].matchAll(/<tspan x="([\d.]+)"[^>]*>([^<]*)<\/tspan>/g)].map((t) => ({
				x: Number(t[1]),
				text: t[2]
			}))
		);
		expect(labels).toHaveLength(6);
		// 9 px a Chinese character: every line is narrower than the slot between two labels' centres.
		const slot = labels[1][0].x - labels[0][0].x;
		for (const lines of labels) {
			expect(lines.length).toBeLessThanOrEqual(2);
			for (const line of lines) expect([...line.text].length * 9).toBeLessThan(slot);
		}
		expect(labels[0].map((l) => l.text).join('')).toBe('人格权与其他民事纠纷');
		// The left-most label does not run off the image.
		expect(labels[0][0].x - ([...labels[0][0].text].length * 9) / 2).toBeGreaterThan(0);
	});

	it('wraps a label at a space where the words fit, else between characters', () => {
		expect(wrapLabel('short', 100, 10)).toEqual(['short']);
		expect(wrapLabel('Contract disputes', 60, 10)).toEqual(['Contract', 'disputes']);
		expect(wrapLabel('合同纠纷合同纠纷', 40, 10)).toEqual(['合同纠纷', '合同纠纷']);
		expect(wrapLabel('合同纠纷合同纠纷合同', 40, 10)).toEqual(['合同纠纷', '合同纠…']);
	});

	it('has a compact paper layout without a title line, smaller than the screen one', () => {
		const paper = figureSvg(testFigure(), { layout: 'paper' });
		expect(paper).toContain('width="480" height="220"');
		expect(paper).not.toContain('font-weight="600" fill="#1c2330">LCA Macro-F1');
		expect(figureSvg(testFigure())).toContain('font-weight="600" fill="#1c2330">LCA Macro-F1');
	});

	it('draws a negative kappa bar downwards from zero with a minus-sign tick', () => {
		const fig = testFigure({ scale: 'kappa', withCi: false });
		fig.cells[0][0] = { value: -0.3, notes: [] };
		const svg = figureSvg(fig);
		expect(svg).toContain('>\u22120.4<');
		const bar =
			/<rect x="[\d.]+" y="([\d.]+)" width="[\d.]+" height="([\d.]+)" fill="#0072B2" data-value="-0.3"/.exec(
				svg
			);
		expect(bar).not.toBeNull();
		expect(Number(bar![2])).toBeGreaterThan(10);
	});
});

describe('xmlEscape', () => {
	it('escapes the five XML specials', () => {
		expect(xmlEscape(`<a href="x">'&'</a>`)).toBe(
			'&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;'
		);
	});

	// The one control-code escape of escape-control.ts, then the entities: a copy would drift here.
	it.each([
		'a\u0000b',
		'esc\u001b[2J',
		'c1\u0085',
		'rlo\u202eabc',
		'ls\u2028',
		'nc\ufffe\uffff',
		'lone\ud800x'
	])('escapes %j as escapeControl does', (text) => {
		expect(xmlEscape(text)).toBe(escapeControl(text));
		expect(xmlEscape(text)).toMatch(/^[\x20-\x7e]*$/);
	});
});

describe('whiskers that say what they are (issue 33, item 7)', () => {
	// Groups mode: model A is a group of three runs (± SD), model B a group of one run, whose
	// whisker is that run's 95% interval over its cases.
	const mixed = (locale?: 'en' | 'zh-CN') =>
		testFigure({
			withSd: true,
			withCi: true,
			locale,
			cells: [
				[
					{ value: 0.62, sd: 0.05, ci: null, notes: [] },
					{ value: 0.5, sd: 0.1, ci: null, notes: [] }
				],
				[
					{ value: 0.7, sd: null, ci: [0.6, 0.8], notes: [] },
					{ value: 0.4, sd: null, ci: [0.3, 0.5], notes: [] }
				]
			]
		});
	const whiskers = (svg: string) =>
		[...svg.matchAll(/<path class="whisker" [^>]*>/g)].map((m) => m[0]);

	it('draws ± SD solid and a single run’s interval dashed, with narrower caps', () => {
		const svg = figureSvg(mixed());
		const sd = whiskers(svg).filter((p) => p.includes('data-whisker="sd"'));
		const ci = whiskers(svg).filter((p) => p.includes('data-whisker="ci"'));
		expect([sd.length, ci.length]).toEqual([2, 2]);
		for (const p of sd) expect(p).not.toContain('stroke-dasharray');
		for (const p of ci) expect(p).toContain('stroke-dasharray="3 2"');
		const capWidth = (p: string) =>
			Number(/H([\d.]+)/.exec(p)![1]) - Number(/M([\d.]+)/.exec(p)![1]);
		expect(capWidth(ci[0])).toBeLessThan(capWidth(sd[0]));
	});

	it('keys both marks in the legend drawn into the image, in the figure’s language', () => {
		const svg = figureSvg(mixed());
		expect(count(svg, /class="whisker-key"[^>]*data-legend="sd"/g)).toBe(1);
		expect(count(svg, /class="whisker-key"[^>]*data-legend="ci"[^>]*stroke-dasharray/g)).toBe(1);
		expect(svg).toContain('>± 1 SD over runs<');
		expect(svg).toContain('>95% interval of one run (over its cases)<');
		const zh = figureSvg(mixed('zh-CN'));
		expect(zh).toContain('>± 1 个标准差（多次运行之间）<');
		expect(zh).toContain('>单次运行的 95% 区间（对其案例）<');
		// The paper layout (its legend on top) keys them too.
		expect(count(figureSvg(mixed(), { layout: 'paper' }), /data-legend=/g)).toBe(2);
	});

	it('keys only the whiskers drawn: none without whiskers, the interval alone for runs', () => {
		expect(figureSvg(testFigure({ withCi: false }))).not.toContain('data-legend');
		const runs = figureSvg(testFigure());
		expect(count(runs, /data-legend="ci"/g)).toBe(1);
		expect(runs).not.toContain('data-legend="sd"');
	});
});

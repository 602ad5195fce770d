/** A small figure for the view modules' unit tests (not shipped: only specs import it). */
import type { Figure } from '../../src/lib/view/figures';

export function testFigure(over: Partial<Figure> = {}): Figure {
	const series = (label: string, id: string, color: string) => ({
		id,
		label,
		short: id,
		color,
		model: label,
		runIds: [id],
		simulated: false
	});
	return {
		id: 'lca-class',
		title: 'LCA Macro-F1 by cause class',
		description: 'Macro-F1 within each class.',
		categoryTitle: 'Class',
		categories: ['合同纠纷', '侵权纠纷'],
		series: [series('gpt-x · run1', 'a', '#0072B2'), series('qwen · run2', 'b', '#E69F00')],
		cells: [
			[
				{ value: 0.62, notes: [], ci: [0.57, 0.66], counts: { cases: 40, claims: 90 } },
				{ value: 0.5, notes: [], ci: [0.3, 1.2], counts: { cases: 12, claims: 20 } }
			],
			[
				{ value: 0.7, notes: [], ci: null, counts: { cases: 40, claims: 90 } },
				{
					value: null,
					notes: ['no case of this class in the run'],
					counts: { cases: 12, claims: 20 }
				}
			]
		],
		scale: 'rate',
		withSd: false,
		withCi: true,
		rows: 'categories',
		...over
	};
}

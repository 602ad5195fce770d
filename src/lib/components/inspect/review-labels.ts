/** How a judge label is shown to a reviewer: LCA's words in the interface language, others as they are. */
import { m } from '$lib/paraglide/messages';

export function labelText(label: string): string {
	if (label === 'clarification') return m.review_label_ask();
	if (label === 'judgment') return m.review_label_answer();
	return label;
}

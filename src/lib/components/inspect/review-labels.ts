/** How a judge label and an agreement's κ are shown to a reader, in the interface language. */
import { MIN_RATED, type Agreement } from '$lib/core/agreement/kappa';
import { formatInterval, formatNumber } from '$lib/core/report/format';
import { m } from '$lib/paraglide/messages';

/** LCA's words in the interface language, others as they are. */
export function labelText(label: string): string {
	if (label === 'clarification') return m.review_label_ask();
	if (label === 'judgment') return m.review_label_answer();
	return label;
}

/**
 * κ as a reader sees it: under MIN_RATED rated items "too small to say" (one item gives κ = 0
 * or none, which reads as a finding), else κ to three places ("—" where it is undefined).
 */
export function kappaText(a: Pick<Agreement, 'n' | 'kappa'>): string {
	return a.n < MIN_RATED ? m.review_too_small() : formatNumber(a.kappa, 3);
}

/** κ's 95% interval: none under MIN_RATED items (the κ cell says why), "—" where undefined. */
export function kappaInterval(a: Pick<Agreement, 'n' | 'ci95'>): string {
	return a.n < MIN_RATED ? '' : formatInterval(a.ci95, 3);
}

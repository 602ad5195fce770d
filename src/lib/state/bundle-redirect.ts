/**
 * The host a bundle link's HEAD ended at, when a redirect took it to another host: the page
 * names that host, not the link's, before anything more is fetched. Escaped: safe to show.
 */
import { escapeControl } from '$lib/core/text/escape-control';

/** The host of `finalURL` when it differs from the host of `linkURL`, else ''. */
export function redirectedHost(linkURL: string, finalURL: string): string {
	try {
		const from = new URL(linkURL).host;
		const to = new URL(finalURL).host;
		return to === from ? '' : escapeControl(to);
	} catch {
		return '';
	}
}

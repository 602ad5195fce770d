/**
 * Why a bundle link was not opened, in the interface language: one sentence per failure, naming
 * the host (escaped already) and what happened, then the bundle reader's problems one a line.
 */
import { formatBytes } from '$lib/core/text';
import { m } from '$lib/paraglide/messages';
import type { BundleFailure } from '$lib/state/bundle-fetch';
import type { BundleLinkProblem } from '$lib/state/bundle-link.svelte';
import { coreText } from '$lib/state/core-text.svelte';
import { shownLink } from '$lib/view/bundle-link';

function failureText(failure: BundleFailure, host: string): string {
	switch (failure.kind) {
		case 'offline':
			return m.share_offline({ host });
		case 'cors':
			return m.share_cors({ host });
		case 'unreachable':
			return m.share_unreachable({ host });
		case 'not-found':
			return m.share_not_found({ host, status: failure.status });
		case 'http':
			return m.share_http({ host, status: failure.status });
		case 'too-large':
			return failure.bytes === null
				? m.share_too_large_unknown({ max: formatBytes(failure.max) })
				: m.share_too_large({ size: formatBytes(failure.bytes), max: formatBytes(failure.max) });
		case 'not-zip':
			return failure.type
				? m.share_not_zip({ host, type: failure.type })
				: m.share_not_zip_untyped();
		case 'over-agreed':
			return m.share_over_agreed({ host, size: formatBytes(failure.agreed) });
		case 'redirected':
			return failure.host
				? m.share_redirect_refused({ host, to: failure.host })
				: m.share_redirect_refused_opaque({ host });
	}
}

/** The problem's lines: what happened first, then each of the bundle's problems. */
export function problemLines(
	problem: BundleLinkProblem,
	host: string,
	raw: string,
	name: string
): string[] {
	switch (problem.kind) {
		case 'link': {
			const link = shownLink(raw);
			if (problem.refusal === 'not-url') return [m.share_not_url({ link })];
			if (problem.refusal === 'not-http') return [m.share_not_http({ link })];
			return [m.share_credentials({ link })];
		}
		case 'fetch':
			return [failureText(problem.failure, host)];
		case 'bundle':
			return [
				problem.total === 1
					? m.share_invalid_one({ name })
					: m.share_invalid({ name, count: problem.total }),
				...problem.problems.map((p, i) => coreText(p, problem.said[i]))
			];
		case 'error':
			return [m.share_error({ error: problem.message })];
	}
}

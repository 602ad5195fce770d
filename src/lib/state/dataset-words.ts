/**
 * The Dataset page's words for what the dataset worker reports (its protocol and client are
 * in `adapters/workers/`): a load's progress and the kinds of problems not listed, in the
 * interface language (the worker's own failures: `worker-words.ts`). Components take the protocol's shapes from
 * here, as they never import adapters.
 */
import { formatCount } from '$lib/core/report/format';
import { m } from '$lib/paraglide/messages';
import type { Progress } from '$lib/adapters/workers/dataset-load-protocol';

export {
	notShownByKind,
	type DatasetHead,
	type ProblemList
} from '$lib/adapters/workers/dataset-load-protocol';
export type { QueryOutcome } from '$lib/adapters/workers/dataset-loader-types';

/**
 * "3 × result_dict, 1 × file" (kinds are field names from the core, at most the first 8), in
 * the interface language.
 */
export function kindsText(kinds: Array<{ kind: string; count: number }>): string {
	const head = kinds.slice(0, 8).map((k) => `${formatCount(k.count)} × ${k.kind}`);
	const rest = kinds.length - head.length;
	return rest > 0 ? m.dataset_kinds_rest({ list: head.join(', '), count: rest }) : head.join(', ');
}

const mb = (bytes: number) => (bytes / 1e6).toFixed(1);

/**
 * One line saying how far a load has got, e.g. "reading the file: 12.3 of 59.0 MB", in the
 * interface language.
 */
export function progressText(progress: Progress | null): string {
	if (!progress) return m.dataset_progress_starting();
	const { done, total } = progress;
	switch (progress.phase) {
		case 'reading':
			return m.dataset_progress_reading({ done: mb(done), total: mb(total) });
		case 'checking':
			return m.dataset_progress_checking({ done: formatCount(done), total: formatCount(total) });
		case 'receiving':
			return m.dataset_progress_receiving({
				done: formatCount(done),
				total: formatCount(total)
			});
	}
}

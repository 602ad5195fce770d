/**
 * Why a run shows no call log on Inspect, from what its manifest says made it. Only a run made by
 * a workbench older than the call log predates it; a run of a version that keeps one has lost its
 * log (not exported or imported with the run, or never written), and another tool's run came
 * without one. The manifest is read from storage, so the tool's name and version are shown
 * escaped and clipped.
 */
import type { Manifest } from '$lib/core/records';
import { clipText } from '$lib/core/text/clip';
import { escapeControl } from '$lib/core/text/escape-control';
import { m } from '$lib/paraglide/messages';

/** The workbench's name in `manifest.tool.name` (its package name). */
export const WORKBENCH_NAME = 'lexpilot-workbench';
/** The first workbench version that writes `calls.jsonl`, as `manifest.tool.version` says it. */
export const CALL_LOG_SINCE = '0.1.0';

export type NoCallLogReason =
	| { kind: 'predates'; version: string }
	| { kind: 'missing'; version: string }
	| { kind: 'other-tool'; tool: string };

/** `a.b.c` as numbers, or null for anything else (`dev`, a pre-release, garbage). */
function release(version: string): [number, number, number] | null {
	const match = /^(\d{1,9})\.(\d{1,9})\.(\d{1,9})$/.exec(version);
	return match ? [Number(match[1]), Number(match[2]), Number(match[3])] : null;
}

function before(a: [number, number, number], b: [number, number, number]): boolean {
	for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] < b[i];
	return false;
}

const shown = (text: unknown) => escapeControl(clipText(String(text ?? ''), 80));

/**
 * The reason for a run without call lines. A workbench version that is not a release (`dev`, the
 * default of an unversioned build) keeps the log, so it cannot predate it either.
 */
export function noCallLogReason(manifest: Pick<Manifest, 'tool'>): NoCallLogReason {
	const { name, version } = manifest.tool;
	if (name !== WORKBENCH_NAME) {
		return { kind: 'other-tool', tool: `${shown(name)} ${shown(version)}`.trim() };
	}
	const made = release(String(version));
	const since = release(CALL_LOG_SINCE)!;
	return made && before(made, since)
		? { kind: 'predates', version: shown(version) }
		: { kind: 'missing', version: shown(version) };
}

/** The sentence Inspect shows for `reason`, in the interface language. */
export function noCallLogText(reason: NoCallLogReason): string {
	switch (reason.kind) {
		case 'predates':
			return m.inspect_no_calls_predates({ version: reason.version, since: CALL_LOG_SINCE });
		case 'missing':
			return m.inspect_no_calls_missing({ version: reason.version });
		case 'other-tool':
			return m.inspect_no_calls_other_tool({ tool: reason.tool });
	}
}

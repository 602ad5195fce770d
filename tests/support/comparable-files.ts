/**
 * A run's files as two starts of the same inputs must write them alike: less the call log (its
 * timings differ, and a stopped run keeps the calls it made), lock files and torn tails, the
 * manifest's creation and start times, and the file stats a resume seal keeps beside each size.
 */

/** `files` less what differs between two starts of the same runs (see the file header). */
export function comparableFiles(files: Iterable<[string, string]>): Map<string, string> {
	const out = new Map<string, string>();
	for (const [path, text] of [...files].sort(([a], [b]) => (a < b ? -1 : 1))) {
		if (path.endsWith('/calls.jsonl') || path.endsWith('.lock') || path.endsWith('.torn')) continue;
		if (path.endsWith('/.resume-seals.json')) out.set(path, sealSizes(text));
		else if (path.endsWith('manifest.json')) out.set(path, manifestLessTimes(text));
		else out.set(path, text);
	}
	return out;
}

/** A manifest's text without its creation time and the time of each start. */
function manifestLessTimes(text: string): string {
	const manifest = JSON.parse(text);
	delete manifest.created_at;
	for (const start of manifest.operational_history ?? []) delete start.at;
	return JSON.stringify(manifest);
}

/** Seals hold each file's size and stat (times, inode): kept is what a seal stands for. */
function sealSizes(text: string): string {
	const seals = JSON.parse(text);
	for (const stage of Object.values(seals.stages) as { files: Record<string, object> }[]) {
		for (const [file, stat] of Object.entries(stage.files)) {
			stage.files[file] = { size: (stat as { size: string }).size };
		}
	}
	return JSON.stringify(seals);
}

/** Unpacking a bundle's zip, refusing a zip bomb, repeated names and reserved names first. */
import { coded } from '../core/said';
import { formatBytes } from '../core/text';
import { english } from '../core/voice';
import { reservedSegment } from './bundle-paths';
import { BundleError, Problems } from './bundle-problems';
import { DEFAULT_BUNDLE_LIMITS, type BundleEntry, type BundleLimits } from './bundle-types';

/**
 * Lists a zip's entries and unpacks them, refusing (BundleError) an archive whose declared sizes
 * exceed `limits` before inflating anything. fflate inflates each entry into a buffer of its
 * declared size, so an entry that lies about its size cannot grow past it either.
 *
 * The central directory is read entry by entry (fflate's `filter` sees every record, in order),
 * so two entries with one name, which an object keyed by name would collapse into one, are
 * refused by name, as are reserved names such as `__proto__`, which such an object would lose.
 */
export async function unzipBundle(
	zip: Uint8Array,
	name: string,
	limits: BundleLimits = DEFAULT_BUNDLE_LIMITS
): Promise<BundleEntry[]> {
	const { unzipSync } = await import('fflate');
	const declared: { name: string; size: number }[] = [];
	try {
		unzipSync(zip, {
			filter: (file) => {
				declared.push({ name: file.name, size: file.originalSize });
				return false;
			}
		});
	} catch (e) {
		const said = coded('bundle_not_zip', { detail: (e as Error).message });
		throw new BundleError([english(said)], name, 1, [said]);
	}
	const problems = new Problems();
	const count = new Map<string, number>();
	for (const entry of declared) count.set(entry.name, (count.get(entry.name) ?? 0) + 1);
	const firstAt = new Map<string, number>();
	const reported = new Set<string>();
	declared.forEach((entry, i) => {
		const first = firstAt.get(entry.name);
		if (first === undefined) firstAt.set(entry.name, i);
		else if (!reported.has(entry.name)) {
			reported.add(entry.name);
			const n = count.get(entry.name)!;
			problems.push(
				coded('bundle_entry_repeated', { name: entry.name, count: n, first: first + 1, at: i + 1 })
			);
		}
		const reserved = reservedSegment(entry.name);
		if (reserved !== null) {
			problems.push(coded('bundle_reserved_name', { name: entry.name, reserved }));
		}
		if (entry.size > limits.maxEntryBytes) {
			problems.push(
				coded('bundle_entry_too_large', {
					name: entry.name,
					size: formatBytes(entry.size),
					max: formatBytes(limits.maxEntryBytes)
				})
			);
		}
	});
	const total = declared.reduce((sum, e) => sum + e.size, 0);
	if (total > limits.maxTotalBytes) {
		problems.push(
			coded('bundle_archive_too_large', {
				size: formatBytes(total),
				max: formatBytes(limits.maxTotalBytes)
			})
		);
	}
	if (problems.length) throw problems.error(name);
	// Every name is now unique and none is reserved, so unpacking into an object keyed by name
	// keeps every entry; the count is checked all the same.
	let files: Record<string, Uint8Array>;
	try {
		files = unzipSync(zip);
	} catch (e) {
		throw Problems.one(coded('bundle_damaged', { detail: (e as Error).message })).error(name);
	}
	const entries = declared.map((d) => ({ path: d.name, bytes: files[d.name] }));
	if (entries.some((e) => !(e.bytes instanceof Uint8Array))) {
		throw Problems.one(coded('bundle_changed_while_read', {})).error(name);
	}
	return entries;
}

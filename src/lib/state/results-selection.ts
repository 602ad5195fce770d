/**
 * Which runs the Results page shows after it reads the stored ones: exactly the runs a link
 * named, or those shown before plus the runs new since (a run the user hid stays hidden).
 */

export interface SelectionInputs {
	/** Keys of the runs read now, in their order. */
	keys: readonly string[];
	/** Runs a link named, or null. */
	linked: readonly string[] | null;
	/** Keys of the runs shown now. */
	selected: readonly string[];
	/** Runs seen at the last read. */
	known: readonly string[];
}

export interface Selection {
	selected: readonly string[];
	/** Runs the link named that are not stored here (empty without a link). */
	missing: readonly string[] | null;
}

export function selectionAfterRead({ keys, linked, selected, known }: SelectionInputs): Selection {
	if (linked) {
		// Exactly the linked runs; every other stored run counts as hidden by the user.
		return {
			selected: linked.filter((k) => keys.includes(k)),
			missing: linked.filter((k) => !keys.includes(k))
		};
	}
	const kept = selected.filter((k) => keys.includes(k));
	const added = keys.filter((k) => !known.includes(k) && !kept.includes(k));
	return { selected: [...kept, ...added], missing: null };
}

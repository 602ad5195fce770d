/**
 * The category map file the dataset is checked with (a JSON object cause → class), if the user
 * loaded one: the map, its bytes (remembered with the dataset), and why the last file was refused.
 */
import { saidOf } from '$lib/core/errors';
import { parseCategoryMap } from '$lib/core/dataset/categories';
import type { CategoryMap } from '$lib/core/dataset/types';
import { coreText } from './core-text.svelte';

export class CategoryFile {
	/** The category map file in use, if the user loaded one. */
	file = $state.raw<{ name: string; map: CategoryMap } | null>(null);
	/** Its bytes, as remembered with the dataset. */
	bytes: Uint8Array | null = null;
	/** Why the last category map file was refused: its name and the core's error. */
	#failure = $state.raw<{ name: string; error: unknown } | null>(null);

	/** That refusal as one line in the interface language (English where the core gave no code). */
	get error(): string | null {
		const f = this.#failure;
		return f ? `${f.name}: ${coreText(errorMessage(f.error), saidOf(f.error))}` : null;
	}

	/** Takes a file in place of the current one; a bad file leaves it and sets `error`. */
	take(bytes: Uint8Array, name: string): boolean {
		let map: CategoryMap;
		try {
			map = parseCategoryMap(bytes);
		} catch (e) {
			this.#failure = { name, error: e };
			return false;
		}
		this.#failure = null;
		this.file = { name, map };
		this.bytes = bytes;
		return true;
	}

	/** Goes back to the project's default category map. */
	clear(): void {
		this.file = null;
		this.#failure = null;
		this.bytes = null;
	}

	/** The file to remember with the dataset, if any. */
	get saved(): { name: string; bytes: Uint8Array } | undefined {
		return this.file && this.bytes ? { name: this.file.name, bytes: this.bytes } : undefined;
	}
}

/** The message of a thrown value. */
export function errorMessage(e: unknown): string {
	return e instanceof Error ? e.message : String(e);
}

/**
 * The files a file input's change picked. The input is emptied, so that picking the same file
 * again is a change too (it opens again).
 */
export function pickedFiles(event: Event & { currentTarget: HTMLInputElement }): File[] {
	const input = event.currentTarget;
	const files = [...(input.files ?? [])];
	input.value = '';
	return files;
}

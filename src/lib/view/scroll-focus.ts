/**
 * A Svelte attachment for boxes that scroll on their own (tables on a narrow screen): while the
 * box's content is wider or taller than the box, it is a Tab stop, so a keyboard user can
 * scroll it with the arrow keys; once it fits, it is not (no empty stops on a wide screen).
 */
export function scrollFocus(box: HTMLElement): () => void {
	const update = () => {
		const scrolls =
			box.scrollWidth > box.clientWidth + 1 || box.scrollHeight > box.clientHeight + 1;
		if (scrolls) box.tabIndex = 0;
		else box.removeAttribute('tabindex');
	};
	// No first check here: reading the sizes now would force a layout inside the update that
	// attached the box (hundreds of ms on a page with a large dataset). A ResizeObserver reports
	// every box it starts observing once, after the next layout, where the read is free.
	const observer = new ResizeObserver(update);
	observer.observe(box);
	for (const child of box.children) observer.observe(child);
	return () => observer.disconnect();
}

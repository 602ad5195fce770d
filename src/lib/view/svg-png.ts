/**
 * A PNG from an SVG string at a chosen scale (2× and 4× for print), drawn by the browser itself:
 * the SVG is loaded as an image from a blob: URL (allowed by the CSP's img-src) and painted on
 * a canvas of scale × its size, so the PNG shows exactly what the SVG export does. A failure is
 * worded in the interface language: the Results page shows its message as it is.
 */
import { m } from '$lib/paraglide/messages';

/** Renders `svg` (of `width` × `height` user units) at `scale` device pixels per unit. */
export async function svgToPng(
	svg: string,
	width: number,
	height: number,
	scale: number
): Promise<Blob> {
	const url = URL.createObjectURL(new Blob([svg], { type: 'image/svg+xml;charset=utf-8' }));
	try {
		const image = new Image(width, height);
		await new Promise<void>((resolve, reject) => {
			image.onload = () => resolve();
			image.onerror = () => reject(new Error(m.results_png_not_drawn()));
			image.src = url;
		});
		const canvas = document.createElement('canvas');
		canvas.width = Math.round(width * scale);
		canvas.height = Math.round(height * scale);
		const ctx = canvas.getContext('2d');
		if (!ctx) throw new Error(m.results_png_no_canvas());
		ctx.fillStyle = '#ffffff';
		ctx.fillRect(0, 0, canvas.width, canvas.height);
		ctx.drawImage(image, 0, 0, canvas.width, canvas.height);
		const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/png'));
		if (!blob) throw new Error(m.results_png_not_encoded());
		return blob;
	} finally {
		URL.revokeObjectURL(url);
	}
}
